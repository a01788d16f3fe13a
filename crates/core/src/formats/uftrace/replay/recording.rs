//! The state every task of one recording shares: the trace being built, the
//! address resolver and argument specs, and caches of what an address means.

use crate::fast_hash::FastMap;
use crate::formats::uftrace::argspec::{FunctionSpec, SpecBook};
use crate::formats::uftrace::info::Info;
use crate::formats::uftrace::resolve::Resolver;
use crate::model::{StrId, TraceBuilder};
use std::collections::HashMap;
use std::rc::Rc;

/// Functions whose calls replace or unwind the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Special {
    None,
    Exec,
    Setjmp,
    Longjmp,
}

fn special_of(name: &str) -> Special {
    match name {
        "execl" | "execlp" | "execle" | "execv" | "execve" | "execvp" | "execvpe" => Special::Exec,
        "setjmp" | "_setjmp" | "sigsetjmp" | "__sigsetjmp" => Special::Setjmp,
        "longjmp" | "siglongjmp" | "__longjmp_chk" => Special::Longjmp,
        _ => Special::None,
    }
}

/// What an address means, cached per address space.
#[derive(Clone, Copy, Debug)]
pub(super) struct AddrInfo {
    pub(super) name: StrId,
    pub(super) symbol: Option<(usize, usize)>,
    pub(super) special: Special,
}

impl AddrInfo {
    /// What an empty slot of [`RecordingState::recent`] holds (its address never matches).
    const UNSET: AddrInfo = AddrInfo {
        name: 0,
        symbol: None,
        special: Special::None,
    };
}

/// Slots of the direct-mapped table in front of the address cache.
pub(super) const RECENT_SLOTS: usize = 256;

/// Where `addr` lives in [`RecordingState::recent`]: functions are at least a few
/// bytes apart, so the low bits past the first four spread them well.
pub(super) fn recent_slot(addr: u64) -> usize {
    ((addr >> 4) ^ (addr >> 12)) as usize % RECENT_SLOTS
}

/// The recording-wide state: what every task of one recording shares.
pub struct RecordingState {
    pub builder: TraceBuilder,
    pub resolver: Resolver,
    pub specs: SpecBook,
    pub info: Info,
    /// The time of the last perf event of a task that has trace data.
    pub last_perf_time: Option<i64>,
    /// SDT event ids (from `events.txt`) → `provider:event`.
    pub event_names: HashMap<u64, String>,
    pub(super) addr_cache: FastMap<(usize, u64), AddrInfo>,
    /// The latest answers of `addr_cache`, by [`recent_slot`] of the address.
    pub(super) recent: Vec<(u64, usize, AddrInfo)>,
    pub(super) spec_cache: FastMap<StrId, Rc<FunctionSpec>>,
    pub(super) enum_sources: Vec<String>,
    pub(super) unknown: StrId,
    pub(super) schedule: StrId,
    pub(super) schedule_preempted: StrId,
}

impl RecordingState {
    /// RecordingState state over parsed metadata.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub fn new(
        mut builder: TraceBuilder,
        resolver: Resolver,
        info: Info,
        event_names: HashMap<u64, String>,
    ) -> Self {
        let specs = SpecBook::new(&info);
        let mut enum_sources: Vec<String> = resolver.debug_enums().map(str::to_owned).collect();
        enum_sources.extend(info.enumauto.clone());
        RecordingState {
            unknown: builder.intern("<unknown>"),
            schedule: builder.intern("linux:schedule"),
            schedule_preempted: builder.intern("linux:schedule (pre-empted)"),
            builder,
            resolver,
            specs,
            info,
            event_names,
            last_perf_time: None,
            addr_cache: FastMap::default(),
            recent: vec![(u64::MAX, usize::MAX, AddrInfo::UNSET); RECENT_SLOTS],
            spec_cache: FastMap::default(),
            enum_sources,
        }
    }

    /// What `addr` is, in address space `space` (from `TaskStream::space_at`) at `time`.
    pub(super) fn addr_info(&mut self, space: Option<usize>, time: i64, addr: u64) -> AddrInfo {
        // Every call record asks, and a hot loop calls few functions: a small
        // direct-mapped table answers most questions before the hash map.
        let slot = recent_slot(addr);
        if let (Some(s), Some((a, sp, info))) = (space, self.recent.get(slot)) {
            if *a == addr && *sp == s {
                return *info;
            }
        }
        if let Some(info) = space.and_then(|s| self.addr_cache.get(&(s, addr))) {
            let info = *info;
            if let (Some(s), Some(entry)) = (space, self.recent.get_mut(slot)) {
                *entry = (addr, s, info);
            }
            return info;
        }
        let resolved = self.resolver.resolve_in(space, time, addr);
        let info = AddrInfo {
            name: self.builder.intern(&resolved.name),
            symbol: resolved.symbol,
            special: special_of(&resolved.name),
        };
        if let Some(s) = space.filter(|&s| self.resolver.in_map(s, addr)) {
            self.addr_cache.insert((s, addr), info);
        }
        info
    }

    /// Each function name the records resolved through a symbol, with the
    /// symbol table (module) it was found in.
    pub fn resolved_modules(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = self
            .addr_cache
            .values()
            .filter_map(|info| Some((self.builder.name_of(info.name).to_owned(), info.symbol?.0)))
            .collect();
        out.sort();
        out.dedup_by(|a, b| a.0 == b.0);
        out
    }

    pub(super) fn spec(&mut self, info: AddrInfo) -> Rc<FunctionSpec> {
        if let Some(spec) = self.spec_cache.get(&info.name) {
            return Rc::clone(spec);
        }
        let debug = info
            .symbol
            .and_then(|at| self.resolver.debug_entry(at))
            .map(|e| (e.args.clone(), e.retval.clone()));
        let name = self.builder.name_of(info.name).to_owned();
        let spec = Rc::new(self.specs.spec_for(
            &name,
            debug.as_ref().map(|(a, r)| (a.as_deref(), r.as_deref())),
        ));
        self.spec_cache.insert(info.name, Rc::clone(&spec));
        spec
    }
}
