//! `tilelayout index SHAPE I,J,…`: the slot of logical coordinates (and
//! for packed sub-byte storage, its byte and bit).

use serde::Serialize;
use tilelayout::value::{parse_shape_with, ErrorKind, Tiling};

use super::{read_u64, Failure, Queries, Query, TilingCache, OPTIONS};
use crate::io::{ErrorFields, Output, Problem};

/// Arguments of `index`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// An array shape, `f32[3,5]{1,0:T(2,2)}`; `-` alone reads lines
    /// `SHAPE@I,J,…` from stdin (a scalar is `SHAPE@` or `SHAPE@()`).
    #[arg(value_name = "SHAPE")]
    pub shape: String,
    /// Coordinates `I,J,…`, one per dim in the order of the dims as written
    /// (`()` or an empty argument for a scalar); `-` reads one a line from
    /// stdin.
    #[arg(value_name = "I,J,…")]
    pub indices: Vec<String>,
}

/// Runs `index`.
///
/// # Errors
/// Usage and I/O errors; bad queries are reported per input.
pub fn run(args: &Args, out: &mut Output) -> Result<(), Failure> {
    let mut queries = Queries::new(&args.shape, &args.indices, "I,J,…")?;
    let mut cache = TilingCache::default();
    let mut bits: Option<(String, u64)> = None;
    while let Some(q) = queries.next_query()? {
        let (input, result) = match q {
            Ok(q) => {
                let r = answer(&q, &mut cache).map(|o| (o, packed_bits(q.shape(), &mut bits)));
                (q.input, r)
            }
            Err((input, p)) => (input, Err(p)),
        };
        let (offset, packed, problem) = match result {
            Ok((o, b)) => (Some(o), b.map(|b| (o * b / 8, o * b % 8)), None),
            Err(p) => (None, None, Some(p)),
        };
        let text = match (offset, packed) {
            (Some(o), Some((byte, bit))) if !out.json() => {
                format!("{} -> {o} (byte {byte}, bit {bit})", input.text)
            }
            (Some(o), None) if !out.json() => format!("{} -> {o}", input.text),
            _ => String::new(),
        };
        let record = Record {
            input: &input.text,
            ok: problem.is_none(),
            offset,
            byte: packed.map(|p| p.0),
            bit: packed.map(|p| p.1),
            error: ErrorFields::of(problem.as_ref()),
        };
        out.record(&input, problem.is_none(), &record, &text)?;
        if let Some(p) = &problem {
            out.diagnose(&input, &input.text, p)?;
        }
    }
    Ok(())
}

/// The JSON object of one query.
#[derive(Serialize)]
pub struct Record<'a> {
    /// `SHAPE@I,J,…`.
    pub input: &'a str,
    /// The query was answered.
    pub ok: bool,
    /// The slot, or null.
    pub offset: Option<u64>,
    /// For packed sub-byte storage (`E(1)`, `E(2)`, `E(4)`): the byte
    /// holding the slot, `offset × bits ÷ 8`; null otherwise.
    pub byte: Option<u64>,
    /// For packed storage: the slot's lowest bit in that byte (the lower
    /// slot of a byte takes the low bits, as XLA packs); null otherwise.
    pub bit: Option<u64>,
    /// The error, if any.
    #[serde(flatten)]
    pub error: ErrorFields,
}

/// The storage bits per element when they are fewer than 8 (packed),
/// for the last shape asked.
fn packed_bits(shape: &str, cache: &mut Option<(String, u64)>) -> Option<u64> {
    if !matches!(cache, Some((s, _)) if s == shape) {
        let bits = parse_shape_with(shape, OPTIONS).map_or(8, |(s, _)| s.storage_bits());
        *cache = Some((shape.to_owned(), bits));
    }
    cache.as_ref().map(|c| c.1).filter(|&b| b < 8)
}

fn answer(q: &Query, cache: &mut TilingCache) -> Result<u64, Problem> {
    if let Some(p) = &q.input.defect {
        return Err(p.clone());
    }
    let coords = read_coords(q.item(), q.item.start)?;
    let tiling: &Tiling = cache
        .get(q.shape())
        .as_ref()
        .map_err(|p| p.clone().shifted(q.shape.start))?;
    let values: Vec<u64> = coords.iter().map(|(v, _)| *v).collect();
    tiling.offset(&values).map_err(|e| {
        let span = match e.kind {
            ErrorKind::IndexOutOfBounds { dim, .. } => coords
                .get(dim as usize)
                .map(|(_, s)| s.clone())
                .unwrap_or(q.item.clone()),
            _ => q.item.clone(),
        };
        Problem::new(e.message().as_str(), span)
    })
}

/// Reads `I,J,…` (optionally in parentheses; empty or `()` for a scalar)
/// at `base` in the input: each coordinate with its byte range.
///
/// # Errors
/// Unbalanced parentheses, a missing or non-integer coordinate.
pub fn read_coords(text: &str, base: usize) -> Result<Vec<(u64, std::ops::Range<usize>)>, Problem> {
    let lead = text.len() - text.trim_start().len();
    let mut body = text.trim();
    let mut at = base + lead;
    if let Some(rest) = body.strip_prefix('(') {
        let Some(inner) = rest.strip_suffix(')') else {
            let end = base + lead + body.len();
            return Err(Problem::new(
                "expected `)` to close the coordinates",
                end..end,
            ));
        };
        body = inner;
        at += 1;
    }
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for part in body.split(',') {
        let v = read_u64(part, at, "a coordinate")?;
        let lead = part.len() - part.trim_start().len();
        out.push((v, at + lead..at + part.trim_end().len()));
        at += part.len() + 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_keep_their_positions() {
        let c = read_coords(" (2, 13) ", 10).unwrap();
        assert_eq!(c, vec![(2, 12..13), (13, 15..17)]);
        assert_eq!(read_coords("()", 0).unwrap(), vec![]);
        assert_eq!(read_coords("", 0).unwrap(), vec![]);
        assert_eq!(read_coords("1,,2", 0).unwrap_err().span, 2..2);
        assert_eq!(read_coords("(1,2", 0).unwrap_err().span, 4..4);
    }
}
