//! A memory and padding report for XLA dumps: which arrays are padded, by
//! how much, why, and what layout would avoid it.
//!
//! `--xla_dump_to=DIR` makes XLA write, for every compiled module, its HLO
//! text (`*.after_optimizations.txt`), its buffer assignment
//! (`*-buffer-assignment.txt`: every allocation and every value placed in
//! it, with the size the compiler gave it) and a memory-usage report. This
//! module reads them and reports, per array value (buffer assignment) or
//! per instruction result (module text):
//!
//! - XLA's bytes (its `ShapeUtil::ArraySize`, what TPU allocations hold),
//!   the bytes of the same array without tiles, the padding and the
//!   expansion factor;
//! - the **cause**: which tile level pads which dim from what to what
//!   (`T(8,128) pads dim 1 from 4 to 128: 32×`), computed with the same
//!   tiling as everything else in the crate ([`padding_causes`]);
//! - for the most padded arrays, the cheapest layout the TPU policy allows
//!   ([`cheapest_alternative`]: another `minor_to_major` with the tiles the
//!   compiler would then give) and the bytes it saves;
//! - per module, totals per memory space and allocation kind, and the
//!   compiler's own `Total bytes used` beside ours ([`Summary`]).
//!
//! A buffer assignment is its own oracle: for every array value, our bytes
//! must equal the `size=` the compiler wrote ([`Record::agrees`]). The one
//! exception is written into the rules, not guessed: a thread-local scalar
//! printed without a layout takes a whole 4 KiB vector register
//! ([`VECTOR_REGISTER_BYTES`]).
//!
//! # Examples
//! ```
//! use tilelayout::dump::{Item, Options, Reader};
//! let module = "HloModule jit_f, entry_computation_layout={(f32[512,4]{1,0:T(8,128)})->f32[512]{0:T(512)}}\n\
//!     \n\
//!     ENTRY %main (p: f32[512,4]) -> f32[512] {\n  \
//!       %p = f32[512,4]{1,0:T(8,128)} parameter(0), metadata={op_name=\"x\"}\n  \
//!       ROOT %r = f32[512]{0:T(512)} reduce(%p, %c), dimensions={1}, to_apply=%add\n\
//!     }\n";
//! let mut reader = Reader::new(None, Options::default());
//! let mut items = Vec::new();
//! for line in module.lines() { reader.line(line, &mut |i| items.push(i)); }
//! reader.finish(&mut |i| items.push(i));
//! let Item::Record(p) = &items[0] else { panic!() };
//! assert_eq!((p.module.as_str(), p.name.as_str()), ("jit_f", "p"));
//! assert_eq!((p.bytes, p.unpadded_bytes, p.padding_bytes), (Some(262144), Some(8192), Some(253952)));
//! assert_eq!(p.expansion, Some(32.0));
//! assert_eq!(p.cause.as_deref(), Some("T(8,128) pads dim 1 from 4 to 128: 32×"));
//! assert_eq!(p.alternative.as_ref().unwrap().saves_bytes, 253952);
//! ```
//!
//! The text is read a line at a time ([`Reader::line`]); memory grows with
//! the module being read, not with the input. With `std`,
//! [`read_paths`] reads files and directories (grouped by module).
//! The parsers of the two formats are their own modules:
//! [`buffer_assignment`] and [`hlo`].

pub mod buffer_assignment;
pub mod hlo;

mod alternative;
mod cause;
mod facts;
#[cfg(feature = "std")]
mod files;
mod reader;
mod report;

pub use alternative::{cheapest_alternative, Alternative, MAX_EXHAUSTIVE_RANK};
pub use buffer_assignment::AllocationKind;
pub use cause::{padding_causes, PaddedDim, Padding};
#[cfg(feature = "std")]
pub use files::{module_key, read_paths, read_stream};
pub use reader::{Item, Options, Reader, VECTOR_REGISTER_BYTES};
pub use report::{Record, RecordKind, Summary, Totals, SCHEMA};
