//! `tilelayout coords SHAPE SLOT`: the logical coordinates stored at a
//! slot, or padding.

use serde::Serialize;

use super::{read_u64, Failure, Queries, Query, TilingCache};
use crate::io::{ErrorFields, Output, Problem};

/// Arguments of `coords`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// An array shape, `f32[3,5]{1,0:T(2,2)}`; `-` alone reads lines
    /// `SHAPE@SLOT` from stdin.
    #[arg(value_name = "SHAPE")]
    pub shape: String,
    /// Slots (linear positions in the layout's storage); `-` reads one a
    /// line from stdin.
    #[arg(value_name = "SLOT")]
    pub slots: Vec<String>,
}

/// Runs `coords`.
///
/// # Errors
/// Usage and I/O errors; bad queries are reported per input.
pub fn run(args: &Args, out: &mut Output) -> Result<(), Failure> {
    let mut queries = Queries::new(&args.shape, &args.slots, "SLOT")?;
    let mut cache = TilingCache::default();
    while let Some(q) = queries.next_query()? {
        let (input, result) = match q {
            Ok(q) => {
                let r = answer(&q, &mut cache);
                (q.input, r)
            }
            Err((input, p)) => (input, Err(p)),
        };
        let (coords, problem) = match result {
            Ok(c) => (Some(c), None),
            Err(p) => (None, Some(p)),
        };
        let text = match &coords {
            Some(Some(c)) if !out.json() => {
                let c: Vec<String> = c.iter().map(u64::to_string).collect();
                format!("{} -> ({})", input.text, c.join(","))
            }
            Some(None) if !out.json() => format!("{} -> padding", input.text),
            _ => String::new(),
        };
        let record = Record {
            input: &input.text,
            ok: problem.is_none(),
            coords: coords.clone().flatten(),
            padding: coords.as_ref().map(Option::is_none),
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
    /// `SHAPE@SLOT`.
    pub input: &'a str,
    /// The query was answered (a padding slot is an answer).
    pub ok: bool,
    /// The coordinates, in the order of the dims as written; null for a
    /// padding slot or an error.
    pub coords: Option<Vec<u64>>,
    /// Whether the slot is padding; null on error.
    pub padding: Option<bool>,
    /// The error, if any.
    #[serde(flatten)]
    pub error: ErrorFields,
}

/// The coordinates at the query's slot, `None` for padding.
fn answer(q: &Query, cache: &mut TilingCache) -> Result<Option<Vec<u64>>, Problem> {
    if let Some(p) = &q.input.defect {
        return Err(p.clone());
    }
    let slot = read_u64(q.item(), q.item.start, "a slot")?;
    let tiling = cache
        .get(q.shape())
        .as_ref()
        .map_err(|p| p.clone().shifted(q.shape.start))?;
    match tiling.coords(slot) {
        Ok(c) => Ok(c.map(|c| c.as_slice().to_vec())),
        Err(e) => {
            let lead = q.item().len() - q.item().trim_start().len();
            let span = q.item.start + lead..q.item.start + q.item().trim_end().len();
            Err(Problem::new(e.message().as_str(), span))
        }
    }
}
