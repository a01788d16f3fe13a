//! What a listing shows: the options of each original tool that change its
//! text (`uftrace replay -f/--no-args/…`, `LogPrinter -thread=/-processparams`,
//! `sp-rtrace-postproc -l/-c/…`). Filters that narrow the trace (`-F`, `-N`,
//! `-t`, `-r`, …) are not here: they are a narrowing
//! (`analysis::transform`), and the listing is made of the narrowed trace.

use super::ListingError;

/// Every layout's options; a layout reads its own part.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListingOptions {
    /// uftrace, Scaler and SWAP (uftrace's replay layout).
    pub replay: ReplayOptions,
    /// SELogger.
    pub log_printer: LogPrinterOptions,
    /// sp-rtrace.
    pub postproc: PostprocOptions,
}

/// A column of `uftrace replay`'s `-f` / `--output-fields`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayField {
    Duration,
    Tid,
    Addr,
    Time,
    Delta,
    Elapsed,
    Task,
    Module,
}

impl ReplayField {
    /// Every field, by its `-f` name.
    pub const ALL: [(&'static str, ReplayField); 8] = [
        ("duration", ReplayField::Duration),
        ("tid", ReplayField::Tid),
        ("addr", ReplayField::Addr),
        ("time", ReplayField::Time),
        ("delta", ReplayField::Delta),
        ("elapsed", ReplayField::Elapsed),
        ("task", ReplayField::Task),
        ("module", ReplayField::Module),
    ];

    /// The field's `-f` name.
    pub fn name(self) -> &'static str {
        ReplayField::ALL
            .iter()
            .find(|(_, field)| *field == self)
            .map_or("", |(name, _)| name)
    }
}

/// `uftrace replay`'s options that change its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The columns left of `|`, in the order given (`-f`); uftrace's
    /// default is duration and tid.
    pub fields: Vec<ReplayField>,
    /// `--no-args`: no arguments or return values.
    pub no_args: bool,
    /// `--no-sched`: no `linux:schedule` rows.
    pub no_sched: bool,
    /// `--column-view`: each task's rows in a column of their own.
    pub column_view: bool,
    /// `--task-newline`: a blank line where the task changes.
    pub task_newline: bool,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            fields: vec![ReplayField::Duration, ReplayField::Tid],
            no_args: false,
            no_sched: false,
            column_view: false,
            task_newline: false,
        }
    }
}

impl ReplayOptions {
    /// Applies a `-f` value as uftrace does: a comma-separated list of
    /// fields replaces the default, `+f1,f2` adds to it, `none` empties it,
    /// `all` takes every field. The columns come in uftrace's own order
    /// ([`ReplayField::ALL`]), whatever order the list names them in.
    pub fn set_fields(&mut self, spec: &str) -> Result<(), ListingError> {
        let (mut chosen, list) = match spec.strip_prefix('+') {
            Some(rest) => (ReplayOptions::default().fields, rest),
            None => (Vec::new(), spec),
        };
        if list == "none" {
            self.fields = Vec::new();
            return Ok(());
        }
        for name in list.split(',').filter(|name| !name.is_empty()) {
            if name == "all" {
                chosen = ReplayField::ALL.iter().map(|(_, field)| *field).collect();
                break;
            }
            let field = ReplayField::ALL
                .iter()
                .find(|(known, _)| *known == name)
                .map(|(_, field)| *field)
                .ok_or_else(|| ListingError::BadOption(format!("unknown field: {name}")))?;
            chosen.push(field);
        }
        self.fields = ReplayField::ALL
            .iter()
            .map(|(_, field)| *field)
            .filter(|field| chosen.contains(field))
            .collect();
        Ok(())
    }
}

/// `selogger.reader.LogPrinter`'s options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogPrinterOptions {
    /// `-thread=`: only the events of these SELogger thread ids.
    pub threads: Option<Vec<i64>>,
    /// `-processparams`: print each call's parameters with its entry.
    pub process_params: bool,
    /// `-from=N`: start at the event with EventId N.
    pub from: u64,
    /// `-num=M`: stop at the first event printed whose EventId is at or
    /// past `from + M`.
    pub num: Option<u64>,
}

/// `sp-rtrace-postproc`'s options that change its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PostprocOptions {
    /// `-l`: only the allocations never freed (leaks).
    pub leaks: bool,
    /// `-c`: calls with the same backtrace merged into one entry.
    pub compress: bool,
    /// `-s size|size-asc|count|count-asc`: the order of `-c`'s groups
    /// (postproc refuses it without `-c`); `None` is `size-asc`.
    pub sort: Option<PostprocSort>,
    /// `-C <hex mask>`: only the calls made in one of these contexts
    /// (`-C 0`: only the calls made in none), and only these contexts in the
    /// registry.
    pub context: Option<u32>,
    /// `-R <hex mask>`: only the calls of these resource types (bit
    /// `1 << (id - 1)`); 0 filters nothing, as in postproc.
    pub resources: Option<u32>,
    /// `-b <depth>`: backtraces cut to this many frames (and the header's
    /// depth set to it).
    pub depth: Option<u32>,
    /// `-r`: frames named as `sp-rtrace-resolve -telf` names them, from the
    /// ELF files dropped beside the trace (`0x… f() from module`; frames of
    /// modules without their file: `0x… from module`; outside every
    /// mapping: `0x… in ??`).
    pub resolve: bool,
    /// Which post-processor's text: 2.0.1 (the default) or 1.6 (the
    /// protocol 1.4 tool: another header, heap labels, and `-l` before `-C`).
    pub release: PostprocRelease,
}

/// A release of `sp-rtrace-postproc` whose text the listing can print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PostprocRelease {
    /// sp-rtrace 1.6 (protocol 1.4).
    V1_6,
    /// sp-rtrace 2.0.1 (protocol 2.0; its header says `origin=sp-rtrace 1.8`).
    #[default]
    V2_0_1,
}

impl PostprocRelease {
    /// The release named `1.6` or `2.0.1`.
    pub fn parse(name: &str) -> Result<PostprocRelease, ListingError> {
        match name {
            "1.6" => Ok(PostprocRelease::V1_6),
            "2.0.1" | "2.0" => Ok(PostprocRelease::V2_0_1),
            _ => Err(ListingError::BadOption(format!(
                "unknown sp-rtrace-postproc release: {name} (1.6, 2.0.1)"
            ))),
        }
    }
}

/// `sp-rtrace-postproc -s`: how `-c`'s backtrace groups are ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PostprocSort {
    /// `size`: largest total size first.
    Size,
    /// `size-asc` (the default): smallest total size first.
    #[default]
    SizeAsc,
    /// `count`: most calls first.
    Count,
    /// `count-asc`: fewest calls first.
    CountAsc,
}

impl PostprocSort {
    /// The order named as postproc's `-s` takes it.
    pub fn parse(name: &str) -> Result<PostprocSort, ListingError> {
        Ok(match name {
            "size" => PostprocSort::Size,
            "size-asc" => PostprocSort::SizeAsc,
            "count" => PostprocSort::Count,
            "count-asc" => PostprocSort::CountAsc,
            _ => {
                return Err(ListingError::BadOption(format!(
                    "unknown sort order: {name} (size, size-asc, count, count-asc)"
                )))
            }
        })
    }
}

/// A `-C` / `-R` mask as postproc reads it: hexadecimal, `0x` allowed.
pub fn parse_hex_mask(text: &str) -> Result<u32, ListingError> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    u32::from_str_radix(digits, 16)
        .map_err(|_| ListingError::BadOption(format!("not a hexadecimal mask: {text}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_replace_add_and_clear() {
        let mut options = ReplayOptions::default();
        // uftrace puts the columns in its own order.
        options.set_fields("time,delta,duration").unwrap();
        assert_eq!(
            options.fields,
            [ReplayField::Duration, ReplayField::Time, ReplayField::Delta]
        );
        // `+` adds to the default (duration, tid), not to what was set.
        options.set_fields("+addr").unwrap();
        assert_eq!(
            options.fields,
            [ReplayField::Duration, ReplayField::Tid, ReplayField::Addr]
        );
        options.set_fields("none").unwrap();
        assert!(options.fields.is_empty());
        assert!(options.set_fields("colour").is_err());
    }
}
