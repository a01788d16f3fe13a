//! Message ids of the SWAP data stream (notes §2 and §4) and their names.

pub const PROCESS_INFO: u32 = 0x0001;
pub const TERMINATE: u32 = 0x0002;
pub const ERROR: u32 = 0x0003;
pub const SAMPLE: u32 = 0x0004;
pub const SYSTEM: u32 = 0x0005;
pub const IMAGE: u32 = 0x0006;
pub const RECORD: u32 = 0x0007;
pub const FUNCTION_ENTRY: u32 = 0x0008;
pub const FUNCTION_EXIT: u32 = 0x0009;
pub const SYSCALL_ENTRY: u32 = 0x000A;
pub const SYSCALL_EXIT: u32 = 0x000B;
pub const FILE_FUNCTION_ENTRY: u32 = 0x000C;
pub const FILE_FUNCTION_EXIT: u32 = 0x000D;
pub const PROCESS_STATUS_INFO: u32 = 0x000E;
pub const CONTEXT_SWITCH_ENTRY: u32 = 0x0010;
pub const CONTEXT_SWITCH_EXIT: u32 = 0x0011;
pub const PROCESS_MAP: u32 = 0x0012;
pub const PROCESS_UNMAP: u32 = 0x0013;
pub const PROCESS_COMM: u32 = 0x0014;
/// Web function entry (4.1 code) or web sampling (2017 document).
pub const WEB_0015: u32 = 0x0015;
pub const WEB_FUNCTION_EXIT: u32 = 0x0016;
pub const APP_SETUP_STAGE: u32 = 0x0019;
pub const WEB_APP_SETUP_STAGE: u32 = 0x001A;
pub const FBI: u32 = 0x0020;
pub const UI_HIERARCHY: u32 = 0x0021;
pub const LSAN: u32 = 0x0022;

pub const PROBE_MEMORY: u32 = 0x0101;
pub const PROBE_UICONTROL: u32 = 0x0102;
pub const PROBE_UIEVENT: u32 = 0x0103;
pub const PROBE_RESOURCE: u32 = 0x0104;
pub const PROBE_LIFECYCLE: u32 = 0x0105;
pub const PROBE_SCREENSHOT: u32 = 0x0106;
pub const PROBE_SCENE: u32 = 0x0107;
pub const PROBE_THREAD: u32 = 0x0108;
pub const PROBE_CUSTOM: u32 = 0x0109;
pub const PROBE_SYNC: u32 = 0x0110;
pub const PROBE_NETWORK: u32 = 0x0111;
pub const PROBE_GL: u32 = 0x0112;

/// The daemon treats any id with this bit as a probe message.
pub const PROBE_BIT: u32 = 0x0100;

/// The name of a known message id, `None` for ids no producer writes.
pub fn name(id: u32) -> Option<&'static str> {
    Some(match id {
        PROCESS_INFO => "MSG_PROCESS_INFO",
        TERMINATE => "MSG_TERMINATE",
        ERROR => "MSG_ERROR",
        SAMPLE => "MSG_SAMPLE",
        SYSTEM => "MSG_SYSTEM",
        IMAGE => "MSG_IMAGE",
        RECORD => "MSG_RECORD",
        FUNCTION_ENTRY => "MSG_FUNCTION_ENTRY",
        FUNCTION_EXIT => "MSG_FUNCTION_EXIT",
        SYSCALL_ENTRY => "MSG_SYSCALL_ENTRY",
        SYSCALL_EXIT => "MSG_SYSCALL_EXIT",
        FILE_FUNCTION_ENTRY => "MSG_FILE_FUNCTION_ENTRY",
        FILE_FUNCTION_EXIT => "MSG_FILE_FUNCTION_EXIT",
        PROCESS_STATUS_INFO => "MSG_PROCESS_STATUS_INFO",
        CONTEXT_SWITCH_ENTRY => "MSG_CONTEXT_SWITCH_ENTRY",
        CONTEXT_SWITCH_EXIT => "MSG_CONTEXT_SWITCH_EXIT",
        PROCESS_MAP => "MSG_PROCESS_MAP",
        PROCESS_UNMAP => "MSG_PROCESS_UNMAP",
        PROCESS_COMM => "MSG_PROCESS_COMM",
        WEB_0015 => "MSG_WEB_FUNCTION_ENTRY / MSG_WEB_SAMPLING",
        WEB_FUNCTION_EXIT => "MSG_WEB_FUNCTION_EXIT",
        APP_SETUP_STAGE => "MSG_APP_SETUP_STAGE",
        WEB_APP_SETUP_STAGE => "MSG_WEB_APP_SETUP_STAGE",
        FBI => "MSG_FBI",
        UI_HIERARCHY => "MSG_UI_HIERARCHY",
        LSAN => "MSG_LSAN",
        PROBE_MEMORY => "MSG_PROBE_MEMORY",
        PROBE_UICONTROL => "MSG_PROBE_UICONTROL",
        PROBE_UIEVENT => "MSG_PROBE_UIEVENT",
        PROBE_RESOURCE => "MSG_PROBE_RESOURCE",
        PROBE_LIFECYCLE => "MSG_PROBE_LIFECYCLE",
        PROBE_SCREENSHOT => "MSG_PROBE_SCREENSHOT",
        PROBE_SCENE => "MSG_PROBE_SCENE",
        PROBE_THREAD => "MSG_PROBE_THREAD",
        PROBE_CUSTOM => "MSG_PROBE_CUSTOM",
        PROBE_SYNC => "MSG_PROBE_SYNC",
        PROBE_NETWORK => "MSG_PROBE_NETWORK",
        PROBE_GL => "MSG_PROBE_GL",
        _ => return None,
    })
}

/// True for ids some producer writes (used by detection and resynchronisation).
pub fn is_known(id: u32) -> bool {
    name(id).is_some()
}
