//! What the report says about one shape text: its sizes, its memory
//! space and why it is padded, computed once per module and shared by the
//! records of every value with that shape.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::cause::for_each_padding;
use super::report::{Record, RecordKind};
use crate::value::{parse_shape_with, walk, Event, ParseOptions, Shape};

/// Sizes and cause of one shape text, computed once per module.
///
/// Small on purpose (no `Shape`, which is kilobytes): records are built
/// from it for every line.
#[derive(Clone, Debug)]
pub(crate) struct Facts {
    /// The array's memory space; `None` when it is not a sized array.
    pub(crate) array: Option<u64>,
    /// Canonical text of a tuple element (empty for a whole array).
    pub(crate) text: String,
    pub(crate) bytes: Option<u64>,
    pub(crate) exact_bytes: Option<u64>,
    pub(crate) unpadded_bytes: Option<u64>,
    pub(crate) cause: Option<String>,
}

const OPTIONS: ParseOptions = ParseOptions { strict: false };

pub(crate) fn parse_array(text: &str) -> Option<Shape> {
    parse_shape_with(text, OPTIONS).ok().map(|(s, _)| s)
}

pub(crate) fn record(
    kind: RecordKind,
    module: &str,
    name: String,
    shape: String,
    f: &Facts,
) -> Record {
    let padding_bytes = match (f.bytes, f.unpadded_bytes) {
        (Some(b), Some(u)) => Some(b.saturating_sub(u)),
        _ => None,
    };
    let expansion = match (f.bytes, f.unpadded_bytes) {
        (Some(b), Some(u)) if u > 0 => Some(b as f64 / u as f64),
        _ => None,
    };
    Record {
        kind,
        module: module.to_string(),
        computation: None,
        name,
        allocation: None,
        allocation_kind: None,
        parameter: None,
        memory_space: 0,
        shape,
        size: None,
        offset: None,
        bytes: f.bytes,
        exact_bytes: f.exact_bytes,
        unpadded_bytes: f.unpadded_bytes,
        padding_bytes,
        expansion,
        cause: f.cause.clone(),
        agrees: None,
        alternative: None,
    }
}

pub(crate) fn compute_facts(text: &str) -> Vec<(String, Facts)> {
    if let Some(shape) = parse_array(text) {
        return alloc::vec![(String::new(), array_facts(shape))];
    }
    let mut out = Vec::new();
    let mut path: Vec<u32> = Vec::new();
    let mut unreadable = None;
    let walked = walk(text, OPTIONS, |e| match e {
        Event::TupleStart { index } | Event::BufferStart { index } => {
            if !path.is_empty() || index != 0 {
                path.push(index);
            } else {
                path.push(u32::MAX); // the top-level tuple itself
            }
        }
        Event::TupleEnd | Event::BufferEnd => {
            path.pop();
        }
        Event::Array { index, shape, .. } => {
            let mut suffix = String::from("{");
            for (k, p) in path
                .iter()
                .skip(1)
                .chain(core::iter::once(&index))
                .enumerate()
            {
                if k > 0 {
                    suffix.push(',');
                }
                suffix.push_str(&p.to_string());
            }
            suffix.push('}');
            if path.is_empty() {
                unreadable = Some(());
            }
            let mut f = array_facts(*shape);
            f.text = shape.to_string();
            out.push((suffix, f));
        }
    });
    match walked {
        Ok(()) if unreadable.is_none() => out,
        Ok(()) => Vec::new(),
        Err(e) => alloc::vec![(
            String::new(),
            Facts {
                array: None,
                text: String::new(),
                bytes: None,
                exact_bytes: None,
                unpadded_bytes: None,
                cause: Some(format!("shape not understood: {e}")),
            }
        )],
    }
}

fn array_facts(shape: Shape) -> Facts {
    let unknown = |cause: String| Facts {
        array: None,
        text: String::new(),
        bytes: None,
        exact_bytes: None,
        unpadded_bytes: None,
        cause: Some(cause),
    };
    let (sizes, tiling) = match (shape.sizes(), shape.tiling()) {
        (Ok(s), Ok(t)) => (s, t),
        (Err(e), _) | (_, Err(e)) => return unknown(format!("no size: {e}")),
    };
    let mut cause = String::new();
    for_each_padding(&shape, &tiling, |p| {
        if !cause.is_empty() {
            cause.push_str("; ");
        }
        let _ = core::fmt::Write::write_fmt(&mut cause, format_args!("{p}"));
    });
    Facts {
        array: Some(shape.layout().memory_space as u64),
        text: String::new(),
        bytes: Some(sizes.xla_bytes),
        exact_bytes: Some(sizes.bytes),
        unpadded_bytes: Some(sizes.unpadded_bytes),
        cause: if cause.is_empty() { None } else { Some(cause) },
    }
}

/// The facts of each array of a shape text, with its index suffix.
pub(crate) type ShapeFacts = Vec<(String, Facts)>;

/// Facts per shape text, kept across modules (the same shapes recur) and
/// emptied when it holds [`FactsCache::CAPACITY`] texts, so memory stays
/// bounded whatever the input. Keyed by a hash of the text (compared in
/// full on a hit): string keys cost a `memcmp` per tree level.
#[derive(Default)]
pub(crate) struct FactsCache {
    map: BTreeMap<u64, Vec<(Box<str>, ShapeFacts)>>,
    len: usize,
}

impl FactsCache {
    /// Distinct shape texts kept at most.
    pub(crate) const CAPACITY: usize = 1 << 16;

    /// The arrays of a shape text (one with an empty suffix for an array;
    /// `{i}`, `{i,j}` … for a tuple's).
    pub(crate) fn get(&mut self, text: &str) -> &[(String, Facts)] {
        let h = fnv1a(text);
        let found = self
            .map
            .get(&h)
            .and_then(|v| v.iter().position(|(t, _)| &**t == text));
        if found.is_none() && self.len >= Self::CAPACITY {
            self.map.clear();
            self.len = 0;
        }
        let bucket = self.map.entry(h).or_default();
        let i = match found {
            Some(i) => i,
            None => {
                bucket.push((text.into(), compute_facts(text)));
                self.len += 1;
                bucket.len() - 1
            }
        };
        &bucket[i].1
    }
}

/// FNV-1a, 64 bits.
fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_is_bounded_and_answers_like_a_fresh_computation() {
        let mut c = FactsCache::default();
        for i in 0..=FactsCache::CAPACITY {
            let text = format!("f32[{i}]{{0:T(128)}}");
            let got = c.get(&text)[0].1.bytes;
            assert_eq!(got, compute_facts(&text)[0].1.bytes);
        }
        // the text past the capacity emptied the cache first
        assert_eq!(c.len, 1);
        assert_eq!(c.get("f32[5]{0:T(128)}")[0].1.bytes, Some(512));
        assert_eq!(c.len, 2);
    }

    #[test]
    fn tuples_name_their_elements_by_index() {
        let f = compute_facts("(f32[16]{0:T(128)}, (s32[]{:T(128)}, bf16[2]{0:T(256)}))");
        let names: Vec<&str> = f.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(names, ["{0}", "{1,0}", "{1,1}"]);
        assert_eq!(f[2].1.text, "bf16[2]{0:T(256)}");
        assert_eq!(f[0].1.bytes, Some(512));
    }
}
