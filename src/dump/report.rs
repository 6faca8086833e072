//! The report's records: one per array value or instruction result, and a
//! summary per module.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::alternative::Alternative;
use super::buffer_assignment::AllocationKind;

/// The version of the record fields (the `schema` of the summary record):
/// raised when a field changes meaning or goes away, not when one is added.
pub const SCHEMA: u32 = 1;

/// What a [`Record`] describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// A value of a buffer assignment (placed in an allocation).
    Value,
    /// An instruction result of an HLO module (no allocation known).
    Instruction,
}

impl RecordKind {
    /// `value` or `instruction`.
    pub const fn name(self) -> &'static str {
        match self {
            RecordKind::Value => "value",
            RecordKind::Instruction => "instruction",
        }
    }
}

/// One array value (or tuple value) and its padding.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Value or instruction.
    pub kind: RecordKind,
    /// The module (the dump file's name without its suffixes, or the
    /// `HloModule` name).
    pub module: String,
    /// The computation holding the instruction (`None` for values).
    pub computation: Option<String>,
    /// The value or instruction name; a tuple element adds its index
    /// (`copy-start.1{0}`).
    pub name: String,
    /// The allocation number (values only).
    pub allocation: Option<u64>,
    /// The allocation's kind (values only).
    pub allocation_kind: Option<AllocationKind>,
    /// `k` when the allocation is `parameter k`.
    pub parameter: Option<u64>,
    /// The memory space: the value's color in a buffer assignment, the
    /// shape's `S(n)` in a module (0 HBM, 1 VMEM on TPU).
    pub memory_space: u64,
    /// The shape with its layout, as written.
    pub shape: String,
    /// The size the compiler gave the value (`size=`), values only.
    pub size: Option<u64>,
    /// Where the value starts in its allocation (`offset=`).
    pub offset: Option<u64>,
    /// Our bytes: XLA's `ArraySize` of the shape (what TPU allocations
    /// hold); `None` for tuples and shapes that do not parse.
    pub bytes: Option<u64>,
    /// Exact bytes (every tile level pads, not only the first).
    pub exact_bytes: Option<u64>,
    /// The same array without tiles: elements × element bits ÷ 8.
    pub unpadded_bytes: Option<u64>,
    /// `bytes − unpadded_bytes`.
    pub padding_bytes: Option<u64>,
    /// `bytes ÷ unpadded_bytes` (`None` for empty arrays).
    pub expansion: Option<f64>,
    /// Why it is padded (`T(8,128) pads dim 1 from 4 to 128: 32×`), or
    /// what it is when it is not an ordinary array; `None` when nothing is
    /// padded.
    pub cause: Option<String>,
    /// Whether `bytes == size` (values with an array shape only): the
    /// compiler's own sizes are the oracle of ours.
    pub agrees: Option<bool>,
    /// For the most padded arrays: the cheapest layout the TPU policy
    /// allows and what it saves.
    pub alternative: Option<Box<Alternative>>,
}

/// Totals of a group of records (one memory space, one allocation kind).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// The group: a memory space (`0`, `1`, …) or a kind name.
    pub key: String,
    /// Allocations in the group (buffer assignments only).
    pub allocations: u64,
    /// Their sizes as the compiler wrote them.
    pub allocation_bytes: u64,
    /// Records in the group.
    pub values: u64,
    /// Σ `bytes` of its arrays.
    pub bytes: u64,
    /// Σ `unpadded_bytes`.
    pub unpadded_bytes: u64,
    /// Σ `padding_bytes`.
    pub padding_bytes: u64,
}

/// What a module's report adds up to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The module.
    pub module: String,
    /// Records reported.
    pub values: u64,
    /// Of which arrays with sizes.
    pub arrays: u64,
    /// Arrays whose bytes equal the compiler's `size=`.
    pub agreeing: u64,
    /// Arrays whose bytes differ from it (0 on every real dump we have).
    pub disagreeing: u64,
    /// The compiler's `Total bytes used`.
    pub compiler_total_bytes: Option<u64>,
    /// Ours: Σ over allocations of the end of their last value, with our
    /// bytes for arrays (the compiler's size for tuples); an allocation
    /// without values counts its written size.
    pub total_bytes: Option<u64>,
    /// Totals per memory space, ascending.
    pub by_memory_space: Vec<Totals>,
    /// Totals per allocation kind (buffer assignments only).
    pub by_kind: Vec<Totals>,
    /// Indices into the module's records of the most padded arrays, most
    /// padded first.
    pub top: Vec<usize>,
    /// Lines that looked like records but did not follow the format.
    pub malformed_lines: u64,
    /// The first of them: line number and what was expected.
    pub first_problem: Option<String>,
}
