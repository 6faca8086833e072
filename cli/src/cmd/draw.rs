//! `tilelayout draw LAYOUT… [--svg FILE] [--format text|slots|memory]`:
//! pictures of layouts (the library's `draw` module) in the terminal, for
//! scripts, or as an SVG file. LAYOUT is XLA's text or CuTe's notation,
//! told apart by its first characters (`draw::is_cute`).

use serde::Serialize;
use tilelayout::algebra::AlgebraError;
use tilelayout::draw::{is_cute, CutePicture, Picture};
use tilelayout::value::parse_shape_with;

use super::{tiling_of, Failure, OPTIONS};
use crate::io::{ErrorFields, Input, Inputs, Output, Problem};

/// What to print.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The grid with each element's slot, tile borders, padding and
    /// packing, then the memory map.
    Text,
    /// Just the slots (a CuTe layout's offsets), one logical row per line.
    Slots,
    /// One line per slot: `slot (i,j,…)` or `slot pad`; for a CuTe layout,
    /// one line per offset reached with every coordinate mapped to it.
    Memory,
}

/// Arguments of `draw`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Array shapes in XLA's text, `f32[3,5]{1,0:T(2,2)}`, or CuTe layouts,
    /// `(8,(2,4)):(1,(8,16))`, `Sw<3,3,3> o _0 o (8,64):(64,1)`; `-` reads
    /// one a line from stdin.
    #[arg(value_name = "LAYOUT", required = true)]
    pub layouts: Vec<String>,
    /// Also write the picture as SVG to FILE (`-`: to stdout, instead of
    /// the text); one LAYOUT only.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// What to print (with `--svg FILE`, nothing unless given).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

/// The JSON object of one input.
#[derive(Serialize)]
pub struct Record<'a> {
    /// The layout as given.
    pub input: &'a str,
    /// It was drawn.
    pub ok: bool,
    /// The format of `picture`.
    pub format: Format,
    /// The picture, or null on error.
    pub picture: Option<String>,
    /// Where the SVG was written, if it was.
    pub svg: Option<&'a str>,
    /// The error, if any.
    #[serde(flatten)]
    pub error: ErrorFields,
}

/// Runs `draw`.
///
/// # Errors
/// Usage errors (`--svg` with several layouts) and I/O errors; bad layouts
/// are reported per input, with the same messages as `parse`.
pub fn run(args: &Args, out: &mut Output) -> Result<(), Failure> {
    if args.svg.is_some() && (args.layouts.len() != 1 || args.layouts[0] == "-") {
        return Err(Failure::Usage(
            "`--svg FILE` draws one LAYOUT, given as an argument".to_owned(),
        ));
    }
    let svg_to_stdout = args.svg.as_deref() == Some("-");
    let format = args.format.unwrap_or(Format::Text);
    let print = args.format.is_some() || args.svg.is_none();
    let mut inputs = Inputs::new(&args.layouts, 1);
    while let Some(input) = inputs.next_input()? {
        let picture = picture_of(&input);
        let mut problem = picture.as_ref().err().cloned();
        let mut shown = None;
        let mut written = None;
        if let Ok(p) = &picture {
            if let Some(file) = args.svg.as_deref().filter(|_| !svg_to_stdout) {
                match std::fs::write(file, p.svg()) {
                    Ok(()) => written = Some(file),
                    Err(e) => {
                        return Err(Failure::Io(std::io::Error::new(
                            e.kind(),
                            format!("writing {file}: {e}"),
                        )))
                    }
                }
            }
            shown = if svg_to_stdout {
                Some(p.svg())
            } else if print {
                Some(match format {
                    Format::Text => p.text(),
                    Format::Slots => p.slots(),
                    Format::Memory => p.memory(),
                })
            } else {
                None
            };
        }
        if let (Some(p), None) = (&input.defect, &problem) {
            problem = Some(p.clone());
        }
        let ok = problem.is_none();
        let text = match (&shown, written) {
            (Some(s), _) => s.clone(),
            (None, Some(f)) => format!("wrote {f}"),
            (None, None) => String::new(),
        };
        let record = Record {
            input: &input.text,
            ok,
            format,
            picture: shown,
            svg: written,
            error: ErrorFields::of(problem.as_ref()),
        };
        out.record(&input, ok, &record, &text)?;
        if let Some(p) = &problem {
            out.diagnose(&input, &input.text, p)?;
        }
    }
    Ok(())
}

/// A picture of either kind (boxed: both are kilobytes of fixed-capacity
/// layout values).
enum Drawing {
    Xla(Box<Picture>),
    Cute(Box<CutePicture>),
}

impl Drawing {
    fn svg(&self) -> String {
        match self {
            Drawing::Xla(p) => p.svg(),
            Drawing::Cute(p) => p.svg(),
        }
    }
    fn text(&self) -> String {
        match self {
            Drawing::Xla(p) => p.text(),
            Drawing::Cute(p) => p.text(),
        }
    }
    fn slots(&self) -> String {
        match self {
            Drawing::Xla(p) => p.slots(),
            Drawing::Cute(p) => p.slots(),
        }
    }
    fn memory(&self) -> String {
        match self {
            Drawing::Xla(p) => p.memory(),
            Drawing::Cute(p) => p.memory(),
        }
    }
}

/// An algebra error located in the input: its span, or the whole input
/// for errors of values (overflow).
fn algebra_problem(text: &str, e: &AlgebraError) -> Problem {
    if e.span.is_none() {
        return Problem::new(e.message().as_str(), 0..text.len());
    }
    let start = e.span.start as usize;
    Problem::new(
        e.message().as_str(),
        start..(e.span.end as usize).max(start),
    )
}

/// The picture of one input: CuTe's notation with the algebra's errors,
/// XLA's text with `parse`'s.
fn picture_of(input: &Input) -> Result<Drawing, Problem> {
    if let Some(p) = &input.defect {
        return Err(p.clone());
    }
    if is_cute(&input.text) {
        return CutePicture::parse(&input.text)
            .map(|p| Drawing::Cute(Box::new(p)))
            .map_err(|e| algebra_problem(&input.text, &e));
    }
    // the tiling validates and locates errors exactly as `parse` does
    tiling_of(&input.text)?;
    let (shape, spans) =
        parse_shape_with(&input.text, OPTIONS).map_err(|e| Problem::from_core(&e))?;
    Picture::new(&shape)
        .map(|p| Drawing::Xla(Box::new(p)))
        .map_err(|e| Problem::from_core(&spans.locate(e)))
}
