//! The streaming reader: lines of dump text in, one module's records and
//! summary out at a time (memory bounded by the largest module).

use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::alternative::cheapest_alternative;
use super::buffer_assignment::{self as ba, Allocation, AllocationKind};
use super::facts::{parse_array, record, Facts, FactsCache};
use super::hlo;
use super::report::{Record, RecordKind, Summary, Totals};

/// A thread-local scalar printed without a layout sits in one whole vector
/// register of the TPU: 8 sublanes × 128 lanes × 4 bytes. Its allocation
/// size is that, not the array's.
pub const VECTOR_REGISTER_BYTES: u64 = 4096;

/// How much to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// How many of the most padded arrays the summary lists (and gets
    /// alternatives for).
    pub top: usize,
}

impl Default for Options {
    /// The ten most padded arrays.
    fn default() -> Options {
        Options { top: 10 }
    }
}

/// What the reader hands out: every record of a module, then its summary.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// One array value or instruction result.
    Record(Record),
    /// The module's totals; comes after its records.
    Summary(Summary),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    None,
    Allocations,
    AfterAllocations,
    Hlo,
}

/// Reads dump text a line at a time: buffer assignments
/// (`BufferAssignment:` …), HLO modules (`HloModule …`), or both
/// concatenated. Each new header ends the module before it.
///
/// # Examples
/// ```
/// use tilelayout::dump::{Item, Options, Reader};
/// let text = "BufferAssignment:\n\
///     allocation 0: size 4096, parameter 0, shape |f32[512,4]| at ShapeIndex {}:\n \
///     value: <0 p @0> (size=262144,offset=0): f32[512,4]{1,0:T(8,128)}\n\
///     \n\
///     Total bytes used: 262144 (256KiB)\n";
/// let mut items = Vec::new();
/// let mut r = Reader::new(Some("m".into()), Options::default());
/// for line in text.lines() { r.line(line, &mut |i| items.push(i)); }
/// r.finish(&mut |i| items.push(i));
/// let Item::Record(v) = &items[0] else { panic!() };
/// assert_eq!((v.bytes, v.unpadded_bytes, v.agrees), (Some(262144), Some(8192), Some(true)));
/// assert_eq!(v.cause.as_deref(), Some("T(8,128) pads dim 1 from 4 to 128: 32×"));
/// assert_eq!(v.alternative.as_ref().unwrap().shape.to_string(), "f32[512,4]{0,1:T(4,128)}");
/// let Item::Summary(s) = &items[1] else { panic!() };
/// assert_eq!((s.compiler_total_bytes, s.total_bytes), (Some(262144), Some(262144)));
/// ```
pub struct Reader {
    options: Options,
    hint: Option<String>,
    module: String,
    mode: Mode,
    line_number: u64,
    records: Vec<Record>,
    allocations: Vec<(Allocation, u64, u64)>, // allocation, extent, values
    facts: FactsCache,
    fusion_bodies: BTreeSet<String>,
    called: BTreeSet<String>,
    entry: Option<String>,
    computation: Option<String>,
    compiler_total: Option<u64>,
    malformed: u64,
    first_problem: Option<String>,
    started: bool,
}

impl Reader {
    /// A reader; `module` names the module when the text does not (a
    /// buffer assignment never does; the CLI passes the file name).
    pub fn new(module: Option<String>, options: Options) -> Reader {
        Reader {
            options,
            hint: module.clone(),
            module: module.unwrap_or_default(),
            mode: Mode::None,
            line_number: 0,
            records: Vec::new(),
            allocations: Vec::new(),
            facts: FactsCache::default(),
            fusion_bodies: BTreeSet::new(),
            called: BTreeSet::new(),
            entry: None,
            computation: None,
            compiler_total: None,
            malformed: 0,
            first_problem: None,
            started: false,
        }
    }

    /// Sets the compiler's `Total bytes used` for the current module (from
    /// its memory-usage report, when only the module text is read).
    pub fn set_compiler_total(&mut self, bytes: u64) {
        self.compiler_total = Some(bytes);
    }

    /// Reads one line (without its `\n`; a trailing `\r` is dropped).
    pub fn line(&mut self, line: &str, emit: &mut dyn FnMut(Item)) {
        self.line_number += 1;
        // A header starts a module whatever came before.
        if line.starts_with("HloModule ") {
            self.hlo_line(line, emit);
            return;
        }
        if line.starts_with("BufferAssignment:") {
            self.flush(emit);
            self.started = true;
            self.mode = Mode::Allocations;
            return;
        }
        match self.mode {
            Mode::Hlo => self.hlo_line(line, emit),
            // the long tables after the allocations repeat them
            Mode::AfterAllocations => {}
            Mode::Allocations | Mode::None => match ba::parse_line(line) {
                ba::Line::Allocation(a) if self.mode == Mode::Allocations => {
                    self.allocations.push((a, 0, 0));
                }
                ba::Line::Value(v) if self.mode == Mode::Allocations => self.value(v),
                ba::Line::Total(n) => {
                    self.compiler_total = Some(n);
                    self.started = true;
                    if self.mode == Mode::Allocations {
                        self.mode = Mode::AfterAllocations;
                    }
                }
                ba::Line::UsedValues => self.mode = Mode::AfterAllocations,
                ba::Line::Malformed(m) if self.mode == Mode::Allocations => self.problem(m),
                _ => {}
            },
        }
    }

    /// Ends the text: hands out the last module.
    pub fn finish(&mut self, emit: &mut dyn FnMut(Item)) {
        self.flush(emit);
    }

    fn problem(&mut self, message: &str) {
        self.malformed += 1;
        if self.first_problem.is_none() {
            self.first_problem = Some(format!("line {}: {message}", self.line_number));
        }
    }

    fn hlo_line(&mut self, line: &str, emit: &mut dyn FnMut(Item)) {
        match hlo::parse_line(line) {
            hlo::Line::Module { name } => {
                self.flush(emit);
                self.started = true;
                self.mode = Mode::Hlo;
                if self.hint.is_none() {
                    self.module = name.to_string();
                }
            }
            hlo::Line::Computation { name, entry } => {
                if entry {
                    self.entry = Some(name.to_string());
                }
                self.computation = Some(name.to_string());
            }
            hlo::Line::End => self.computation = None,
            hlo::Line::Instruction(i) => {
                if let Some(c) = i.calls {
                    self.fusion_bodies.insert(c.to_string());
                }
                let called = &mut self.called;
                hlo::called_computations(i.rest, hlo::runs_body(i.opcode), |c| {
                    if !called.contains(c) {
                        called.insert(c.to_string());
                    }
                });
                // these alias their operands: no buffer of their own
                if matches!(i.opcode, "get-tuple-element" | "tuple" | "bitcast") {
                    return;
                }
                let facts = self.facts.get(i.shape);
                for (suffix, f) in facts {
                    let mut name = String::with_capacity(i.name.len() + suffix.len());
                    name.push_str(i.name);
                    name.push_str(suffix);
                    let shape = if suffix.is_empty() { i.shape } else { &f.text };
                    let mut r = record(
                        RecordKind::Instruction,
                        &self.module,
                        name,
                        shape.to_string(),
                        f,
                    );
                    r.computation.clone_from(&self.computation);
                    r.memory_space = f.array.unwrap_or(0);
                    self.records.push(r);
                }
            }
            hlo::Line::Malformed(m) => self.problem(m),
            hlo::Line::Other => {}
        }
    }

    fn value(&mut self, v: ba::Value<'_>) {
        let Some(&(alloc, ..)) = self.allocations.last() else {
            self.problem("a value before any allocation");
            return;
        };
        let register = alloc.kind == AllocationKind::ThreadLocal && !v.shape.contains('{');
        let mut f = match self.facts.get(v.shape) {
            [(s, f)] if s.is_empty() => f.clone(),
            _ => Facts {
                array: None,
                text: String::new(),
                bytes: None,
                exact_bytes: None,
                unpadded_bytes: None,
                cause: Some("a tuple: not an array; its elements are values of their own".into()),
            },
        };
        if register && f.array.is_some() {
            f.bytes = Some(VECTOR_REGISTER_BYTES);
            f.exact_bytes = Some(VECTOR_REGISTER_BYTES);
            f.cause =
                Some("no layout: a thread-local scalar takes a whole 4 KiB vector register".into());
        }
        let mut r = record(
            RecordKind::Value,
            &self.module,
            v.name.to_string(),
            v.shape.to_string(),
            &f,
        );
        r.allocation = Some(alloc.index);
        r.allocation_kind = Some(alloc.kind);
        r.parameter = alloc.parameter;
        r.memory_space = v.color;
        r.size = Some(v.size);
        r.offset = Some(v.offset);
        r.agrees = r.bytes.map(|b| b == v.size);
        let end = v.offset.saturating_add(r.bytes.unwrap_or(v.size));
        if let Some(last) = self.allocations.last_mut() {
            last.1 = last.1.max(end);
            last.2 += 1;
        }
        self.records.push(r);
    }

    fn flush(&mut self, emit: &mut dyn FnMut(Item)) {
        if !self.started {
            return;
        }
        let mut records = core::mem::take(&mut self.records);
        // Buffers belong to the entry computation and to the computations
        // it runs (reducers, loop bodies, branches, …), at any depth; the
        // body of a fusion or async op owns none, nor does a computation
        // nothing calls.
        // Without an entry (an excerpt of a module) only the fusion bodies
        // can be told apart.
        let (bodies, called, entry) = (&self.fusion_bodies, &self.called, &self.entry);
        records.retain(|r| match (&r.computation, entry) {
            (None, _) => true,
            (Some(c), None) => !bodies.contains(c),
            (Some(c), Some(e)) => !bodies.contains(c) && (e == c || called.contains(c)),
        });
        // the most padded arrays, and a cheaper layout for each
        let mut order: Vec<usize> = (0..records.len())
            .filter(|&i| records[i].padding_bytes.is_some_and(|p| p > 0))
            .collect();
        order.sort_by_key(|&i| core::cmp::Reverse(records[i].padding_bytes));
        order.truncate(self.options.top);
        for &i in &order {
            let r = &mut records[i];
            if let (Some(shape), Some(bytes)) = (parse_array(&r.shape), r.bytes) {
                r.alternative = cheapest_alternative(&shape, bytes).map(Box::new);
            }
        }
        let summary = self.summary(&records, order);
        for r in records {
            emit(Item::Record(r));
        }
        emit(Item::Summary(summary));
        let (hint, options, line_number) = (self.hint.clone(), self.options, self.line_number);
        let facts = core::mem::take(&mut self.facts);
        *self = Reader::new(hint, options);
        self.line_number = line_number;
        self.facts = facts;
    }

    fn summary(&self, records: &[Record], top: Vec<usize>) -> Summary {
        let mut spaces: BTreeMap<u64, Totals> = BTreeMap::new();
        let mut kinds: BTreeMap<AllocationKind, Totals> = BTreeMap::new();
        let mut s = Summary {
            module: self.module.clone(),
            compiler_total_bytes: self.compiler_total,
            top,
            malformed_lines: self.malformed,
            first_problem: self.first_problem.clone(),
            ..Summary::default()
        };
        for r in records {
            s.values += 1;
            let add = |t: &mut Totals| {
                t.values += 1;
                t.bytes = t.bytes.saturating_add(r.bytes.unwrap_or(0));
                t.unpadded_bytes = t
                    .unpadded_bytes
                    .saturating_add(r.unpadded_bytes.unwrap_or(0));
                t.padding_bytes = t.padding_bytes.saturating_add(r.padding_bytes.unwrap_or(0));
            };
            add(spaces.entry(r.memory_space).or_default());
            if let Some(k) = r.allocation_kind {
                add(kinds.entry(k).or_default());
            }
            if r.bytes.is_some() {
                s.arrays += 1;
            }
            match r.agrees {
                Some(true) => s.agreeing += 1,
                Some(false) => s.disagreeing += 1,
                None => {}
            }
        }
        if !self.allocations.is_empty() {
            let mut total = 0u64;
            for &(a, extent, values) in &self.allocations {
                let ours = if values == 0 { a.size } else { extent };
                total = total.saturating_add(ours);
                let k = kinds.entry(a.kind).or_default();
                k.allocations += 1;
                k.allocation_bytes = k.allocation_bytes.saturating_add(a.size);
                let m = spaces.entry(a.color).or_default();
                m.allocations += 1;
                m.allocation_bytes = m.allocation_bytes.saturating_add(a.size);
            }
            s.total_bytes = Some(total);
        }
        s.by_memory_space = spaces
            .into_iter()
            .map(|(k, mut t)| {
                t.key = k.to_string();
                t
            })
            .collect();
        s.by_kind = kinds
            .into_iter()
            .map(|(k, mut t)| {
                t.key = k.name().to_string();
                t
            })
            .collect();
        s
    }
}
