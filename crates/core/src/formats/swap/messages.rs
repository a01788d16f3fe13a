//! The messages of a SWAP stream as plain data, field for field as they are
//! on the wire (notes §2). The parser produces them and the test encoder
//! writes them, so a round trip can be compared with `==`.

use super::values::Value;

/// A time as the stream stores it: seconds, then nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WireTime {
    pub sec: u32,
    pub nsec: u32,
}

impl WireTime {
    /// Nanoseconds since the epoch.
    pub fn ns(self) -> i64 {
        i64::from(self.sec) * 1_000_000_000 + i64::from(self.nsec)
    }
}

/// One message with its header fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub seq: u32,
    pub time: WireTime,
    pub message: Message,
    /// Bytes after the parsed fields that `len` still covers (the junk after
    /// MSG_SYSTEM, or slack any producer left).
    pub slack: u32,
}

/// Every message kind the notes describe.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    ProcessInfo(ProcessInfo),
    Terminate {
        pid: u32,
    },
    Error {
        text: String,
    },
    Sample(Sample),
    System(System),
    /// MSG_IMAGE: listed in the id table, no producer and no layout; kept raw.
    Image {
        payload: Vec<u8>,
    },
    Record {
        events: Vec<InputEvent>,
    },
    FunctionEntry(FunctionEntry),
    FunctionExit(FunctionExit),
    SyscallEntry(SyscallEntry),
    SyscallExit(SyscallExit),
    FileFunctionEntry(FileFunctionEntry),
    FileFunctionExit {
        pid: u32,
        tid: u32,
        ret: Value,
    },
    ProcessStatusInfo(ProcessStatusInfo),
    ContextSwitch(ContextSwitch),
    ProcessMap {
        pid: u32,
        low: u64,
        high: u64,
        path: String,
    },
    ProcessUnmap {
        pid: u32,
        low: u64,
        high: u64,
    },
    ProcessComm {
        pid: u32,
        comm: String,
    },
    /// 0x0015 as the 4.1 code writes it.
    WebFunctionEntry(WebCall),
    /// 0x0015 as the 2017 document describes it: a leading subtype byte.
    WebSampling {
        subtype: u8,
        call: WebCall,
    },
    WebFunctionExit {
        pid: u32,
        tid: u32,
        name: String,
    },
    AppSetupStage(AppSetupStage),
    WebAppSetupStage(WebAppSetupStage),
    Fbi {
        variable: u32,
        data: Vec<u8>,
    },
    UiHierarchy {
        path: String,
    },
    Lsan(Lsan),
    Probe(Probe),
    /// A message whose id no producer writes: skipped by its length.
    Unknown {
        id: u32,
        payload: Vec<u8>,
    },
}

/// MSG_PROCESS_INFO.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProcessInfo {
    pub pid: u32,
    pub comm: String,
    pub ppid: u32,
    pub start: WireTime,
    pub low: u64,
    pub high: u64,
    pub binary: String,
    pub libs: Vec<Mapping>,
}

/// An executable mapping of a library.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mapping {
    pub low: u64,
    pub high: u64,
    pub path: String,
}

/// MSG_SAMPLE.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    pub pid: u32,
    pub pc: u64,
    pub tid: u32,
    pub cpu: u32,
}

/// MSG_SYSTEM, for a given CPU count and energy device count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct System {
    /// Per CPU, kHz.
    pub cpu_frequency: Vec<f32>,
    /// Per CPU, percent.
    pub cpu_load: Vec<f32>,
    pub memory_used: u64,
    pub processes: Vec<SystemProcess>,
    /// Other processes: pid and load.
    pub others: Vec<(u32, f32)>,
    /// Total used drive, reads, sectors read, writes, sectors written.
    pub disk: [u32; 5],
    /// Sent, received.
    pub network: [u32; 2],
    /// wifi, bt, gps, brightness, camera, sound, audio, vibration, voltage,
    /// rssi, video, call, dnet.
    pub devices: [u32; 13],
    pub energy: u32,
    pub energy_per_device: Vec<u32>,
    pub app_energy_per_device: Vec<u32>,
}

/// A target process in MSG_SYSTEM.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SystemProcess {
    pub pid: u32,
    pub load: f32,
    pub virtual_bytes: u64,
    pub resident: u64,
    pub shared: u64,
    pub pss: u64,
    /// GEM PSS and 3D memory: only in the "protocol 4.2" variant.
    pub gem_and_3d: Option<(u64, u64)>,
    pub total_alloc: u64,
    /// Thread id and load.
    pub threads: Vec<(u32, f32)>,
}

/// A raw Linux input event of MSG_RECORD.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputEvent {
    pub device: u32,
    pub kind: u32,
    pub code: u32,
    pub value: u32,
}

/// MSG_FUNCTION_ENTRY. `legacy` holds the pre-4.0 `probe_type, sub_type`
/// pair that sits between tid and pc in 2.1/3.0 streams.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FunctionEntry {
    pub pid: u32,
    pub tid: u32,
    pub legacy: Option<(u16, u16)>,
    pub pc: u64,
    pub caller: u64,
    pub cpu: u32,
    pub args: Vec<Value>,
}

/// MSG_FUNCTION_EXIT.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionExit {
    pub pid: u32,
    pub tid: u32,
    pub legacy: Option<(u16, u16)>,
    pub pc: u64,
    pub caller: u64,
    pub cpu: u32,
    pub ret: Value,
}

/// MSG_SYSCALL_ENTRY.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SyscallEntry {
    pub pid: u32,
    pub tid: u32,
    pub probe_type: u32,
    pub pc: u64,
    pub caller: u64,
    pub cpu: u32,
    pub args: Vec<Value>,
}

/// MSG_SYSCALL_EXIT.
#[derive(Clone, Debug, PartialEq)]
pub struct SyscallExit {
    pub pid: u32,
    pub tid: u32,
    pub probe_type: u32,
    pub pc: u64,
    pub caller: u64,
    pub cpu: u32,
    pub ret: Value,
}

/// MSG_FILE_FUNCTION_ENTRY.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileFunctionEntry {
    pub pid: u32,
    pub tid: u32,
    pub fd: u32,
    pub event: u32,
    pub path: String,
    pub info: FileInfo,
}

/// The variable part of a file function entry.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum FileInfo {
    #[default]
    None,
    Open {
        opened_path: String,
    },
    Lock {
        kind: u32,
        whence: u32,
        start: u64,
        length: u64,
    },
    /// A kind the notes do not describe; its bytes run to the payload end.
    Other {
        kind: u32,
        bytes: Vec<u8>,
    },
}

/// MSG_PROCESS_STATUS_INFO.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProcessStatusInfo {
    pub pid: u32,
    /// True when entries carry the TID the documents list (and the code lacks).
    pub with_tid: bool,
    pub files: Vec<OpenFile>,
}

/// A file open when tracing attached.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpenFile {
    pub fd: u32,
    pub tid: u32,
    pub size: u64,
    pub path: String,
}

/// MSG_CONTEXT_SWITCH_ENTRY (`entry`) or _EXIT.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContextSwitch {
    pub entry: bool,
    pub pc: u64,
    pub pid: u32,
    pub tid: u32,
    pub cpu: u32,
}

/// A web function call (0x0015 either way).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WebCall {
    pub pid: u32,
    pub tid: u32,
    pub line: u32,
    pub name: String,
    pub url: String,
}

/// MSG_APP_SETUP_STAGE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AppSetupStage {
    pub pid: u32,
    pub stage: u32,
    pub begin: WireTime,
    pub end: WireTime,
}

/// MSG_WEB_APP_SETUP_STAGE.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WebAppSetupStage {
    pub pid: u32,
    pub wsp_id: u32,
    /// Present for ids 1–4.
    pub resource: Option<u32>,
    /// Present for id 1.
    pub path: Option<String>,
}

/// MSG_LSAN.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lsan {
    pub status: u32,
    pub pid: u32,
    pub message: String,
    pub call_type: u32,
    pub caller: u64,
}

/// A MSG_PROBE_* message: the common part and the kind's tail.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub api_id: u32,
    pub pid: u32,
    pub tid: u32,
    pub args: Vec<Value>,
    pub ret: Value,
    pub errno: u64,
    pub call_type: u32,
    pub caller: u64,
    pub reserved: (u32, u32),
    pub tail: ProbeTail,
}

/// The part of a probe message that depends on its id.
#[derive(Clone, Debug, PartialEq)]
pub enum ProbeTail {
    Memory {
        size: u64,
        api_type: u32,
        address: u64,
    },
    UiControl {
        parent: UiControl,
        child: UiControl,
    },
    UiEvent {
        event_type: u32,
        detail: u32,
        x: u32,
        y: u32,
        info1: String,
        info2: u32,
    },
    Resource {
        size: u64,
        fd: u64,
        api_type: u32,
        file_size: u64,
        path: String,
    },
    Lifecycle,
    Screenshot {
        path: String,
        orientation: u32,
    },
    Scene {
        scene: String,
        form: String,
        form_address: u64,
        panel: String,
        panel_address: u64,
        transition: u64,
        user: u64,
    },
    Thread {
        pthread_id: u64,
        tizen_thread_id: u64,
        thread_type: u32,
        api_type: u32,
        class_name: String,
    },
    Custom {
        handle: u32,
        chart_type: u32,
        name: String,
        color: u32,
        value: f64,
    },
    Sync {
        object: u64,
        sync_type: u32,
        api_type: u32,
    },
    Network {
        object: u64,
        fd: u64,
        api_type: u32,
        ip: u32,
        port: u32,
        total: u64,
        data: Vec<u8>,
    },
    Gl {
        context: u64,
        api_type: u32,
        elapsed_ns: u64,
        value: String,
    },
    /// A probe id (bit 0x0100 set) the notes do not describe: raw tail.
    Other {
        id: u32,
        bytes: Vec<u8>,
    },
}

/// One control record of MSG_PROBE_UICONTROL.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiControl {
    pub kind: String,
    pub name: String,
    pub address: u64,
}

impl Message {
    /// The message id this message is written with.
    pub fn id(&self) -> u32 {
        use super::ids::*;
        match self {
            Message::ProcessInfo(_) => PROCESS_INFO,
            Message::Terminate { .. } => TERMINATE,
            Message::Error { .. } => ERROR,
            Message::Sample(_) => SAMPLE,
            Message::System(_) => SYSTEM,
            Message::Image { .. } => IMAGE,
            Message::Record { .. } => RECORD,
            Message::FunctionEntry(_) => FUNCTION_ENTRY,
            Message::FunctionExit(_) => FUNCTION_EXIT,
            Message::SyscallEntry(_) => SYSCALL_ENTRY,
            Message::SyscallExit(_) => SYSCALL_EXIT,
            Message::FileFunctionEntry(_) => FILE_FUNCTION_ENTRY,
            Message::FileFunctionExit { .. } => FILE_FUNCTION_EXIT,
            Message::ProcessStatusInfo(_) => PROCESS_STATUS_INFO,
            Message::ContextSwitch(c) if c.entry => CONTEXT_SWITCH_ENTRY,
            Message::ContextSwitch(_) => CONTEXT_SWITCH_EXIT,
            Message::ProcessMap { .. } => PROCESS_MAP,
            Message::ProcessUnmap { .. } => PROCESS_UNMAP,
            Message::ProcessComm { .. } => PROCESS_COMM,
            Message::WebFunctionEntry(_) | Message::WebSampling { .. } => WEB_0015,
            Message::WebFunctionExit { .. } => WEB_FUNCTION_EXIT,
            Message::AppSetupStage(_) => APP_SETUP_STAGE,
            Message::WebAppSetupStage(_) => WEB_APP_SETUP_STAGE,
            Message::Fbi { .. } => FBI,
            Message::UiHierarchy { .. } => UI_HIERARCHY,
            Message::Lsan(_) => LSAN,
            Message::Probe(p) => p.tail.id(),
            Message::Unknown { id, .. } => *id,
        }
    }
}

impl ProbeTail {
    /// The message id of a probe with this tail.
    pub fn id(&self) -> u32 {
        use super::ids::*;
        match self {
            ProbeTail::Memory { .. } => PROBE_MEMORY,
            ProbeTail::UiControl { .. } => PROBE_UICONTROL,
            ProbeTail::UiEvent { .. } => PROBE_UIEVENT,
            ProbeTail::Resource { .. } => PROBE_RESOURCE,
            ProbeTail::Lifecycle => PROBE_LIFECYCLE,
            ProbeTail::Screenshot { .. } => PROBE_SCREENSHOT,
            ProbeTail::Scene { .. } => PROBE_SCENE,
            ProbeTail::Thread { .. } => PROBE_THREAD,
            ProbeTail::Custom { .. } => PROBE_CUSTOM,
            ProbeTail::Sync { .. } => PROBE_SYNC,
            ProbeTail::Network { .. } => PROBE_NETWORK,
            ProbeTail::Gl { .. } => PROBE_GL,
            ProbeTail::Other { id, .. } => *id,
        }
    }
}
