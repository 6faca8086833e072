//! `tilelayout dump PATH… [--json | --csv] [--top N]`: the memory and
//! padding report of XLA dump files (buffer assignments, HLO module text,
//! or directories of them), module by module.

use std::io::{self, Write};
use std::path::PathBuf;

use serde::Serialize;
use tilelayout::dump::{self, Item, Options, Record, Summary, Totals, SCHEMA};

use super::Failure;
use crate::io::Output;

/// Arguments of `dump`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// `*-buffer-assignment.txt` files, HLO module texts
    /// (`*.after_optimizations.txt`), directories of dump files (read a
    /// module at a time), or `-` for standard input.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// How many of the most padded arrays to list (and find cheaper
    /// layouts for) per module.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub top: usize,
    /// Print comma-separated values: a header, then one row a record and
    /// one a module summary (the columns of the JSON records).
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
}

/// Runs `dump`.
///
/// # Errors
/// I/O errors (a missing path, an unreadable file, a closed pipe).
pub fn run(args: &Args, out: &mut Output) -> Result<(), Failure> {
    let options = Options { top: args.top };
    let format = if args.csv {
        Format::Csv
    } else if out.json() {
        Format::Json
    } else {
        Format::Text
    };
    let mut writer = Writer {
        format,
        records: Vec::new(),
        error: None,
        bad: false,
        header: false,
        modules: 0,
        summaries: 0,
    };
    for path in &args.paths {
        let before = writer.summaries;
        let mut emit = |item: Item| writer.item(out, item);
        if path == "-" {
            let mut reader = dump::Reader::new(None, options);
            dump::read_stream(io::stdin().lock(), &mut reader, &mut emit)?;
        } else {
            dump::read_paths(&[PathBuf::from(path)], options, &mut emit)
                .map_err(|e| Failure::Io(io::Error::new(e.kind(), format!("{path}: {e}"))))?;
        }
        if let Some(e) = writer.error.take() {
            return Err(Failure::Io(e));
        }
        if writer.summaries == before {
            let w = out.writer();
            w.flush()?;
            eprintln!(
                "error: {}: no buffer assignment (`BufferAssignment:`), HLO module \
                 (`HloModule …`) or memory-usage report found",
                if path == "-" { "<stdin>" } else { path }
            );
            writer.bad = true;
        }
    }
    if writer.bad {
        out.reject();
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Csv,
}

/// Writes items as they come; text mode keeps a module's records until its
/// summary (the most padded are listed there).
struct Writer {
    format: Format,
    records: Vec<Record>,
    error: Option<io::Error>,
    bad: bool,
    header: bool,
    modules: usize,
    summaries: usize,
}

impl Writer {
    fn item(&mut self, out: &mut Output, item: Item) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.write(out, item) {
            self.error = Some(e);
        }
    }

    fn write(&mut self, out: &mut Output, item: Item) -> io::Result<()> {
        let w = out.writer();
        match (self.format, item) {
            (Format::Json, Item::Record(r)) => json_line(w, &RecordJson::of(&r)),
            (Format::Json, Item::Summary(s)) => {
                self.check(&s);
                json_line(w, &SummaryJson::of(&s, &self.records))
            }
            (Format::Csv, item) => {
                if !self.header {
                    self.header = true;
                    writeln!(w, "{}", CSV_COLUMNS.join(","))?;
                }
                match item {
                    Item::Record(r) => csv_row(w, &RecordJson::of(&r).csv()),
                    Item::Summary(s) => {
                        self.check(&s);
                        csv_row(w, &summary_csv(&s))
                    }
                }
            }
            (Format::Text, Item::Record(r)) => {
                self.records.push(r);
                Ok(())
            }
            (Format::Text, Item::Summary(s)) => {
                self.check(&s);
                if self.modules > 0 {
                    writeln!(w)?;
                }
                self.modules += 1;
                let text = text_summary(&s, &self.records);
                self.records.clear();
                w.write_all(text.as_bytes())
            }
        }
    }

    /// A module is "rejected" (exit status 1) when a size disagrees with
    /// the compiler's or a line did not follow the format.
    fn check(&mut self, s: &Summary) {
        self.summaries += 1;
        if s.disagreeing > 0 || s.malformed_lines > 0 {
            self.bad = true;
        }
    }
}

fn json_line<T: Serialize>(w: &mut impl Write, v: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *w, v).map_err(io::Error::other)?;
    w.write_all(b"\n")
}

/// The columns of `--csv`, in order: the JSON record fields.
pub const CSV_COLUMNS: [&str; 20] = [
    "record",
    "module",
    "computation",
    "name",
    "allocation",
    "kind",
    "parameter",
    "memory_space",
    "shape",
    "size",
    "offset",
    "bytes",
    "exact_bytes",
    "unpadded_bytes",
    "padding_bytes",
    "expansion",
    "cause",
    "agrees",
    "alternative",
    "saves_bytes",
];

/// The JSON object of one value or instruction (field names are stable:
/// see `SCHEMA`).
#[derive(Serialize)]
struct RecordJson<'a> {
    record: &'static str,
    module: &'a str,
    computation: Option<&'a str>,
    name: &'a str,
    allocation: Option<u64>,
    kind: Option<&'static str>,
    parameter: Option<u64>,
    memory_space: u64,
    shape: &'a str,
    size: Option<u64>,
    offset: Option<u64>,
    bytes: Option<u64>,
    exact_bytes: Option<u64>,
    unpadded_bytes: Option<u64>,
    padding_bytes: Option<u64>,
    expansion: Option<f64>,
    cause: Option<&'a str>,
    agrees: Option<bool>,
    alternative: Option<String>,
    alternative_bytes: Option<u64>,
    saves_bytes: Option<u64>,
}

impl<'a> RecordJson<'a> {
    fn of(r: &'a Record) -> RecordJson<'a> {
        RecordJson {
            record: r.kind.name(),
            module: &r.module,
            computation: r.computation.as_deref(),
            name: &r.name,
            allocation: r.allocation,
            kind: r.allocation_kind.map(|k| k.name()),
            parameter: r.parameter,
            memory_space: r.memory_space,
            shape: &r.shape,
            size: r.size,
            offset: r.offset,
            bytes: r.bytes,
            exact_bytes: r.exact_bytes,
            unpadded_bytes: r.unpadded_bytes,
            padding_bytes: r.padding_bytes,
            expansion: r.expansion,
            cause: r.cause.as_deref(),
            agrees: r.agrees,
            alternative: r.alternative.as_ref().map(|a| a.shape.to_string()),
            alternative_bytes: r.alternative.as_ref().map(|a| a.bytes),
            saves_bytes: r.alternative.as_ref().map(|a| a.saves_bytes),
        }
    }

    fn csv(&self) -> [String; 20] {
        let n = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
        [
            self.record.into(),
            self.module.into(),
            self.computation.unwrap_or("").into(),
            self.name.into(),
            n(self.allocation),
            self.kind.unwrap_or("").into(),
            n(self.parameter),
            self.memory_space.to_string(),
            self.shape.into(),
            n(self.size),
            n(self.offset),
            n(self.bytes),
            n(self.exact_bytes),
            n(self.unpadded_bytes),
            n(self.padding_bytes),
            self.expansion.map_or(String::new(), |e| format!("{e:.3}")),
            self.cause.unwrap_or("").into(),
            self.agrees.map_or(String::new(), |a| a.to_string()),
            self.alternative.clone().unwrap_or_default(),
            n(self.saves_bytes),
        ]
    }
}

/// Totals of one group, as JSON.
#[derive(Serialize)]
struct TotalsJson<'a> {
    key: &'a str,
    allocations: u64,
    allocation_bytes: u64,
    values: u64,
    bytes: u64,
    unpadded_bytes: u64,
    padding_bytes: u64,
}

impl<'a> TotalsJson<'a> {
    fn of(t: &'a Totals) -> TotalsJson<'a> {
        TotalsJson {
            key: &t.key,
            allocations: t.allocations,
            allocation_bytes: t.allocation_bytes,
            values: t.values,
            bytes: t.bytes,
            unpadded_bytes: t.unpadded_bytes,
            padding_bytes: t.padding_bytes,
        }
    }
}

/// The summary record of a module.
#[derive(Serialize)]
struct SummaryJson<'a> {
    record: &'static str,
    schema: u32,
    module: &'a str,
    values: u64,
    arrays: u64,
    agreeing: u64,
    disagreeing: u64,
    compiler_total_bytes: Option<u64>,
    total_bytes: Option<u64>,
    bytes: u64,
    unpadded_bytes: u64,
    padding_bytes: u64,
    by_memory_space: Vec<TotalsJson<'a>>,
    by_kind: Vec<TotalsJson<'a>>,
    top: Vec<&'a str>,
    malformed_lines: u64,
    first_problem: Option<&'a str>,
}

impl<'a> SummaryJson<'a> {
    /// `records` are the module's (kept in text mode only); the names of
    /// the most padded come from them when present.
    fn of(s: &'a Summary, records: &'a [Record]) -> SummaryJson<'a> {
        let sum = |f: fn(&Totals) -> u64| s.by_memory_space.iter().map(f).sum();
        SummaryJson {
            record: "summary",
            schema: SCHEMA,
            module: &s.module,
            values: s.values,
            arrays: s.arrays,
            agreeing: s.agreeing,
            disagreeing: s.disagreeing,
            compiler_total_bytes: s.compiler_total_bytes,
            total_bytes: s.total_bytes,
            bytes: sum(|t| t.bytes),
            unpadded_bytes: sum(|t| t.unpadded_bytes),
            padding_bytes: sum(|t| t.padding_bytes),
            by_memory_space: s.by_memory_space.iter().map(TotalsJson::of).collect(),
            by_kind: s.by_kind.iter().map(TotalsJson::of).collect(),
            top: s
                .top
                .iter()
                .filter_map(|&i| records.get(i).map(|r| r.name.as_str()))
                .collect(),
            malformed_lines: s.malformed_lines,
            first_problem: s.first_problem.as_deref(),
        }
    }
}

fn summary_csv(s: &Summary) -> [String; 20] {
    let j = SummaryJson::of(s, &[]);
    let n = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    let mut row: [String; 20] = Default::default();
    row[0] = "summary".into();
    row[1] = s.module.clone();
    row[9] = n(s.compiler_total_bytes); // size: the compiler's total
    row[11] = n(s.total_bytes.or(Some(j.bytes))); // bytes: ours
    row[13] = j.unpadded_bytes.to_string();
    row[14] = j.padding_bytes.to_string();
    row
}

fn csv_row(w: &mut impl Write, fields: &[String]) -> io::Result<()> {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        if f.contains([',', '"', '\n', '\r']) {
            write!(w, "\"{}\"", f.replace('"', "\"\""))?;
        } else {
            w.write_all(f.as_bytes())?;
        }
    }
    w.write_all(b"\n")
}

fn text_summary(s: &Summary, records: &[Record]) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let j = SummaryJson::of(s, records);
    let _ = writeln!(
        t,
        "{}",
        if s.module.is_empty() {
            "<stdin>"
        } else {
            &s.module
        }
    );
    let _ = write!(t, "  {} values, {} arrays", s.values, s.arrays);
    if s.agreeing + s.disagreeing > 0 {
        if s.disagreeing == 0 {
            let _ = write!(t, ": all {} sizes agree with the compiler's", s.agreeing);
        } else {
            let _ = write!(t, ": {} sizes DIFFER from the compiler's", s.disagreeing);
        }
    }
    t.push('\n');
    if let Some(p) = &s.first_problem {
        let _ = writeln!(t, "  {} malformed lines; first: {p}", s.malformed_lines);
    }
    let _ = write!(
        t,
        "  arrays: {} bytes, {} unpadded, {} padding",
        j.bytes, j.unpadded_bytes, j.padding_bytes
    );
    if j.unpadded_bytes > 0 {
        let _ = write!(t, " ({:.2}×)", j.bytes as f64 / j.unpadded_bytes as f64);
    }
    t.push('\n');
    match (s.total_bytes, s.compiler_total_bytes) {
        (Some(ours), Some(theirs)) => {
            let _ = writeln!(
                t,
                "  total: {ours} bytes (compiler's Total bytes used: {theirs})"
            );
        }
        (None, Some(theirs)) => {
            let _ = writeln!(t, "  compiler's Total bytes used: {theirs}");
        }
        (Some(ours), None) => {
            let _ = writeln!(t, "  total: {ours} bytes");
        }
        (None, None) => {}
    }
    for (title, groups) in [("memory space", &s.by_memory_space), ("kind", &s.by_kind)] {
        for g in groups {
            let _ = write!(t, "  {title:<12} {:<18}", g.key);
            if g.allocations > 0 {
                let _ = write!(
                    t,
                    " {:>4} allocations {:>12} bytes;",
                    g.allocations, g.allocation_bytes
                );
            }
            let _ = writeln!(
                t,
                " {:>5} values {:>12} bytes, {:>12} padding",
                g.values, g.bytes, g.padding_bytes
            );
        }
    }
    if !s.top.is_empty() {
        let _ = writeln!(t, "  most padded:");
    }
    for (n, &i) in s.top.iter().enumerate() {
        let Some(r) = records.get(i) else { continue };
        let _ = write!(
            t,
            "  {:>3}. {} {} (space {}",
            n + 1,
            r.name,
            r.shape,
            r.memory_space
        );
        if let (Some(a), Some(k)) = (r.allocation, r.allocation_kind) {
            let _ = write!(t, ", allocation {a} {}", k.name());
        }
        if let Some(c) = &r.computation {
            let _ = write!(t, ", in {c}");
        }
        let _ = writeln!(
            t,
            "): {} bytes for {}, {} padding ({:.2}×)",
            r.bytes.unwrap_or(0),
            r.unpadded_bytes.unwrap_or(0),
            r.padding_bytes.unwrap_or(0),
            r.expansion.unwrap_or(1.0)
        );
        if let Some(c) = &r.cause {
            let _ = writeln!(t, "       {c}");
        }
        if let Some(a) = &r.alternative {
            let _ = writeln!(
                t,
                "       cheaper: {} ({} bytes, saves {})",
                a.shape, a.bytes, a.saves_bytes
            );
        }
    }
    t
}
