//! Which calls are waiting rather than working: joins, condition waits,
//! barriers, semaphore waits and lock acquisitions (by function name, in
//! every format; the JDK's counterparts in SELogger traces), and time a
//! uftrace recording marks as off the CPU.
//!
//! Scaler's cross-flow analysis (`XFA.py`, `generateXFAStruct`) takes
//! `pthread_join` and the condition / barrier waits out of the caller's
//! time into their own columns; the lock and semaphore waits are added here
//! because they block the same way. The `try` variants never block and stay
//! work.

use crate::model::SPAN_OFF_CPU;
use serde::{Deserialize, Serialize};

/// What a waiting call waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaitKind {
    /// `pthread_join`, `pthread_timedjoin_np`, `pthread_clockjoin_np`.
    Join,
    /// `pthread_cond_wait`, `…_timedwait`, `…_clockwait`.
    Condition,
    /// `pthread_barrier_wait`.
    Barrier,
    /// `sem_wait`, `sem_timedwait`, `sem_clockwait`.
    Semaphore,
    /// Mutex, rwlock and spinlock acquisition.
    Lock,
    /// Time the kernel had the thread off the CPU (uftrace's
    /// `linux:schedule` spans).
    OffCpu,
}

/// The kind of wait a call to `name` (with span `flags`) is, if it waits.
pub fn wait_kind(name: &str, flags: u8) -> Option<WaitKind> {
    if flags & SPAN_OFF_CPU != 0 {
        return Some(WaitKind::OffCpu);
    }
    // uftrace may name a PLT call `name@plt`.
    let name = name.strip_suffix("@plt").unwrap_or(name);
    if let Some(kind) = java_wait(name) {
        return Some(kind);
    }
    Some(match name {
        "pthread_join" | "pthread_timedjoin_np" | "pthread_clockjoin_np" => WaitKind::Join,
        "pthread_cond_wait" | "pthread_cond_timedwait" | "pthread_cond_clockwait" => {
            WaitKind::Condition
        }
        "pthread_barrier_wait" => WaitKind::Barrier,
        "sem_wait" | "sem_timedwait" | "sem_clockwait" => WaitKind::Semaphore,
        "pthread_mutex_lock" | "pthread_mutex_timedlock" | "pthread_mutex_clocklock" => {
            WaitKind::Lock
        }
        "pthread_spin_lock" => WaitKind::Lock,
        n if is_rwlock_acquire(n) => WaitKind::Lock,
        _ => return None,
    })
}

/// The JDK's blocking calls in a SELogger trace, as a method
/// (`java.lang.Thread.join`) or a call site (`call java.lang.Thread.join`,
/// maybe with its signature).
fn java_wait(name: &str) -> Option<WaitKind> {
    let method = name.strip_prefix("call ").unwrap_or(name);
    let method = method.split('(').next().unwrap_or(method).trim();
    Some(match method {
        "java.lang.Thread.join" => WaitKind::Join,
        "java.lang.Object.wait" => WaitKind::Condition,
        "java.util.concurrent.CountDownLatch.await"
        | "java.util.concurrent.CyclicBarrier.await" => WaitKind::Barrier,
        "java.util.concurrent.Semaphore.acquire" => WaitKind::Semaphore,
        "java.util.concurrent.locks.ReentrantLock.lock"
        | "java.util.concurrent.locks.LockSupport.park" => WaitKind::Lock,
        _ => return None,
    })
}

/// `pthread_rwlock_{rd,wr,timedrd,timedwr,clockrd,clockwr}lock`.
fn is_rwlock_acquire(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("pthread_rwlock_") else {
        return false;
    };
    let rest = rest
        .strip_prefix("timed")
        .or_else(|| rest.strip_prefix("clock"))
        .unwrap_or(rest);
    rest == "rdlock" || rest == "wrlock"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocking_calls_wait_and_try_calls_work() {
        assert_eq!(wait_kind("pthread_join", 0), Some(WaitKind::Join));
        assert_eq!(
            wait_kind("pthread_cond_timedwait", 0),
            Some(WaitKind::Condition)
        );
        assert_eq!(
            wait_kind("pthread_rwlock_timedwrlock", 0),
            Some(WaitKind::Lock)
        );
        assert_eq!(wait_kind("pthread_rwlock_rdlock", 0), Some(WaitKind::Lock));
        assert_eq!(wait_kind("sem_wait@plt", 0), Some(WaitKind::Semaphore));
        for work in [
            "pthread_rwlock_tryrdlock",
            "pthread_rwlock_unlock",
            "pthread_mutex_trylock",
            "pthread_tryjoin_np",
            "sem_trywait",
            "sem_post",
            "pthread_cond_signal",
            "printf",
        ] {
            assert_eq!(wait_kind(work, 0), None, "{work}");
        }
        assert_eq!(
            wait_kind("linux:schedule", SPAN_OFF_CPU),
            Some(WaitKind::OffCpu)
        );
        assert_eq!(
            wait_kind("call java.lang.Thread.join", 0),
            Some(WaitKind::Join)
        );
        assert_eq!(
            wait_kind("java.util.concurrent.CountDownLatch.await(long)", 0),
            Some(WaitKind::Barrier)
        );
        assert_eq!(wait_kind("call java.lang.Thread.start", 0), None);
    }
}
