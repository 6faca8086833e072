//! Inputs, outputs and the exit status, shared by every subcommand.
//!
//! - **Inputs** ([`Inputs`]): the arguments in order, where an argument `-`
//!   stands for the lines of standard input and an argument naming a file
//!   (and holding none of `[ { ( @`, which every shape or query has) for
//!   the lines of that file. Of each line, the first tab-separated field is
//!   the input (so TSV files with a source column work); a trailing `\r` is
//!   dropped; blank lines, `#` comments and a TSV header (a first line whose
//!   first field has none of `[ { ( @`) are skipped; errors name the line.
//!   Lines that are not UTF-8 or longer than [`MAX_LINE`]
//!   bytes become inputs with a [`Problem`], never a panic.
//! - **Problems** ([`Problem`]): a message and the byte range of the input
//!   it is about; shown as a JSON field with `--json`, else on stderr with a
//!   caret line under the range, like rustc.
//! - **Output** ([`Output`]): one JSON object a line, or text; remembers
//!   whether any input was rejected for the exit status (0 every input was
//!   fine, 1 some input was rejected; 2, usage errors, is clap's).

use std::io::{self, BufRead, BufReader, BufWriter, Stdout, Write};
use std::ops::Range;
use std::process::ExitCode;
use std::rc::Rc;

use serde::Serialize;
use tilelayout::value::Error;

/// Longest input accepted, in bytes (ours: real shapes are under 1 KiB;
/// the cap keeps memory bounded on binary input and byte positions within
/// the core's 32-bit spans).
pub const MAX_LINE: usize = 1 << 20;

/// Where an input came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The n-th command-line argument of the subcommand (1-based).
    Arg(usize),
    /// Line n of standard input (1-based).
    Stdin(usize),
    /// A line of a file named by an argument (boxed: inputs stay small).
    File(Box<FileLine>),
}

/// A line of a file: the path as given and the line number (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLine {
    /// The path as given on the command line.
    pub path: Rc<str>,
    /// The line number, 1-based.
    pub line: usize,
}

impl Origin {
    /// `argument 2`, `<stdin> line 5` or `shapes.tsv line 5`.
    pub fn describe(&self) -> String {
        match self {
            Origin::Arg(n) => format!("argument {n}"),
            Origin::Stdin(n) => format!("<stdin> line {n}"),
            Origin::File(f) => format!("{} line {}", f.path, f.line),
        }
    }
}

/// Whether an argument stands for the lines of a file: it names one and
/// cannot be an input itself (every shape holds `[`, `{` or `(`, every
/// query `@`).
pub fn names_file(arg: &str) -> bool {
    !arg.contains(['[', '{', '(', '@']) && std::path::Path::new(arg).is_file()
}

/// One input: its text and where it came from.
#[derive(Clone, Debug)]
pub struct Input {
    /// The text (invalid UTF-8 replaced by U+FFFD; then `defect` says so).
    pub text: String,
    /// Where it came from.
    pub origin: Origin,
    /// Why the input cannot be used at all (not UTF-8, too long).
    pub defect: Option<Problem>,
}

impl Input {
    /// An input from its bytes: checked for length and UTF-8.
    fn from_bytes(bytes: &[u8], origin: Origin, too_long: bool) -> Input {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let defect = if too_long || bytes.len() > MAX_LINE {
            Some(Problem::new(
                format!("input longer than {MAX_LINE} bytes"),
                MAX_LINE.min(text.len())..text.len(),
            ))
        } else {
            match std::str::from_utf8(bytes) {
                Ok(_) => None,
                Err(e) => {
                    // in the lossy text the valid prefix is intact and the
                    // first bad sequence became one U+FFFD
                    let at = e.valid_up_to();
                    Some(Problem::new(
                        "input is not valid UTF-8",
                        at..at + '\u{FFFD}'.len_utf8(),
                    ))
                }
            }
        };
        Input {
            text,
            origin,
            defect,
        }
    }
}

/// The inputs named by a list of arguments: each argument is one input,
/// except `-`, which stands for the lines of standard input, and a file's
/// path ([`names_file`]), which stands for the lines of the file.
///
/// Lines are read lazily, one at a time, so a long stream is answered as
/// it comes (see [`Output::record`] for the flushing).
pub struct Inputs<'a> {
    args: &'a [String],
    next_arg: usize,
    first_arg_number: usize,
    lines: Option<Lines>,
    buf: Vec<u8>,
}

/// Lines being read: standard input or a file.
struct Lines {
    reader: Box<dyn BufRead>,
    /// The file's path (`None` for standard input).
    file: Option<Rc<str>>,
    line: usize,
    /// Every line whole, tabs included (`cute -`), instead of the first
    /// tab-separated field of the non-blank, non-comment lines.
    whole: bool,
}

impl Lines {
    fn stdin() -> Lines {
        Lines {
            reader: Box::new(io::stdin().lock()),
            file: None,
            line: 0,
            whole: false,
        }
    }

    fn file(path: &str) -> io::Result<Lines> {
        let f = std::fs::File::open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}")))?;
        Ok(Lines {
            reader: Box::new(BufReader::new(f)),
            file: Some(path.into()),
            line: 0,
            whole: false,
        })
    }

    fn origin(&self) -> Origin {
        match &self.file {
            Some(f) => Origin::File(Box::new(FileLine {
                path: f.clone(),
                line: self.line,
            })),
            None => Origin::Stdin(self.line),
        }
    }
}

/// What to do with a line read from standard input or a file: its first
/// tab-separated field, or nothing for a blank line, a `#` comment or a
/// TSV header on line 1.
fn line_input(bytes: &[u8], line: usize) -> Option<&[u8]> {
    let tab = bytes.iter().position(|&b| b == b'\t');
    let field = &bytes[..tab.unwrap_or(bytes.len())];
    let trimmed = field.trim_ascii();
    if trimmed.is_empty() || trimmed.starts_with(b"#") {
        return None;
    }
    let header =
        line == 1 && tab.is_some() && !field.iter().any(|b| matches!(b, b'[' | b'{' | b'(' | b'@'));
    if header {
        return None;
    }
    Some(field)
}

impl<'a> Inputs<'a> {
    /// The inputs of `args`, numbered from `first_arg_number` (the position
    /// of `args[0]` among the subcommand's arguments, 1-based).
    pub fn new(args: &'a [String], first_arg_number: usize) -> Inputs<'a> {
        Inputs {
            args,
            next_arg: 0,
            first_arg_number,
            lines: None,
            buf: Vec::new(),
        }
    }

    /// The lines of standard input alone.
    pub fn stdin() -> Inputs<'static> {
        Inputs {
            args: &[],
            next_arg: 0,
            first_arg_number: 1,
            lines: Some(Lines::stdin()),
            buf: Vec::new(),
        }
    }

    /// The lines of standard input alone, each whole (tabs included, blank
    /// lines kept): for commands whose one input is a tab-separated line.
    pub fn stdin_lines() -> Inputs<'static> {
        let mut lines = Lines::stdin();
        lines.whole = true;
        Inputs {
            args: &[],
            next_arg: 0,
            first_arg_number: 1,
            lines: Some(lines),
            buf: Vec::new(),
        }
    }

    /// The lines of the file at `path` alone.
    ///
    /// # Errors
    /// The file cannot be opened (the message names it).
    pub fn file(path: &str) -> io::Result<Inputs<'static>> {
        Ok(Inputs {
            args: &[],
            next_arg: 0,
            first_arg_number: 1,
            lines: Some(Lines::file(path)?),
            buf: Vec::new(),
        })
    }

    /// The next input, `None` at the end.
    ///
    /// # Errors
    /// An I/O error reading standard input or a file.
    pub fn next_input(&mut self) -> io::Result<Option<Input>> {
        loop {
            if let Some(lines) = self.lines.as_mut() {
                match read_line_limited(&mut lines.reader, &mut self.buf)? {
                    Some(too_long) => {
                        lines.line += 1;
                        let mut bytes = self.buf.as_slice();
                        if let [rest @ .., b'\r'] = bytes {
                            bytes = rest;
                        }
                        let field = if lines.whole {
                            bytes
                        } else {
                            let Some(field) = line_input(bytes, lines.line) else {
                                continue;
                            };
                            field
                        };
                        return Ok(Some(Input::from_bytes(field, lines.origin(), too_long)));
                    }
                    None => self.lines = None,
                }
            }
            let Some(arg) = self.args.get(self.next_arg) else {
                return Ok(None);
            };
            let number = self.first_arg_number + self.next_arg;
            self.next_arg += 1;
            if arg == "-" {
                self.lines = Some(Lines::stdin());
                continue;
            }
            if names_file(arg) {
                self.lines = Some(Lines::file(arg)?);
                continue;
            }
            return Ok(Some(Input::from_bytes(
                arg.as_bytes(),
                Origin::Arg(number),
                false,
            )));
        }
    }
}

/// Reads one line (without its `\n`) into `buf`, keeping at most
/// [`MAX_LINE`] + 1 bytes and skipping the rest. `None` at the end of the
/// input; else whether the line was cut.
fn read_line_limited(r: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(cut));
        }
        any = true;
        let (len, newline) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = (MAX_LINE + 1).saturating_sub(buf.len());
        if len > room {
            cut = true;
        }
        buf.extend_from_slice(&chunk[..len.min(room)]);
        r.consume(len + usize::from(newline));
        if newline {
            return Ok(Some(cut));
        }
    }
}

/// Something wrong with an input: a message and the byte range of the
/// input it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong, without the position.
    pub message: String,
    /// Where, in bytes of the input text.
    pub span: Range<usize>,
}

impl Problem {
    /// A problem at `span`.
    pub fn new(message: impl Into<String>, span: Range<usize>) -> Problem {
        Problem {
            message: message.into(),
            span,
        }
    }

    /// A core error, with its position (errors of values that were not
    /// parsed sit at byte 0).
    pub fn from_core(e: &Error) -> Problem {
        if e.span.is_none() {
            return Problem::new(e.message().as_str(), 0..0);
        }
        let start = e.span.start as usize;
        Problem::new(
            e.message().as_str(),
            start..(e.span.end as usize).max(start),
        )
    }

    /// The same problem in a text that has `by` more bytes in front.
    pub fn shifted(mut self, by: usize) -> Problem {
        self.span = self.span.start + by..self.span.end + by;
        self
    }

    /// `message at byte N`, as in the core's `Display`.
    pub fn describe(&self) -> String {
        format!("{} at byte {}", self.message, self.span.start)
    }
}

/// Fields every JSON object carries for an error: the message with its
/// byte position, and the byte range (`null`s when there is no error).
#[derive(Serialize, Default)]
pub struct ErrorFields {
    /// `message at byte N`, or null.
    pub error: Option<String>,
    /// First byte of the offending range, or null.
    pub error_start: Option<usize>,
    /// One past its last byte, or null.
    pub error_end: Option<usize>,
}

impl ErrorFields {
    /// The fields for `problem`.
    pub fn of(problem: Option<&Problem>) -> ErrorFields {
        match problem {
            None => ErrorFields::default(),
            Some(p) => ErrorFields {
                error: Some(p.describe()),
                error_start: Some(p.span.start),
                error_end: Some(p.span.end),
            },
        }
    }
}

/// Standard output in JSON-lines or text form, and the exit status.
pub struct Output {
    json: bool,
    out: BufWriter<Stdout>,
    records: usize,
    rejected: bool,
}

impl Output {
    /// An output; `json` selects one JSON object a line.
    pub fn new(json: bool) -> Output {
        Output {
            json,
            out: BufWriter::new(io::stdout()),
            records: 0,
            rejected: false,
        }
    }

    /// Whether `--json` was given.
    pub fn json(&self) -> bool {
        self.json
    }

    /// Standard output, for subcommands that write reports rather than
    /// one record an input (`dump`).
    pub fn writer(&mut self) -> &mut BufWriter<Stdout> {
        &mut self.out
    }

    /// Marks the run as rejected (exit status 1).
    pub fn reject(&mut self) {
        self.rejected = true;
    }

    /// Writes one record for `input`: `value` as a JSON line, or `text` (a
    /// block of lines; blocks of several lines are separated by a blank
    /// line). `ok` false marks the run as rejected (exit status 1). Output
    /// is flushed after each record that came from standard input, so a
    /// script can talk to the command line by line.
    ///
    /// # Errors
    /// Writing to standard output failed.
    pub fn record<T: Serialize>(
        &mut self,
        input: &Input,
        ok: bool,
        value: &T,
        text: &str,
    ) -> io::Result<()> {
        if !ok {
            self.rejected = true;
        }
        if self.json {
            serde_json::to_writer(&mut self.out, value).map_err(io::Error::other)?;
            self.out.write_all(b"\n")?;
        } else if !text.is_empty() {
            if self.records > 0 && text.trim_end().contains('\n') {
                self.out.write_all(b"\n")?;
            }
            self.out.write_all(text.as_bytes())?;
            if !text.ends_with('\n') {
                self.out.write_all(b"\n")?;
            }
            self.records += 1;
        }
        if matches!(input.origin, Origin::Stdin(_) | Origin::File(..)) {
            self.out.flush()?;
        }
        Ok(())
    }

    /// Reports `problem` with `input` on stderr (text mode only; in JSON
    /// mode the record carries it). Does not mark the run as rejected:
    /// [`Output::record`] does, with `ok` false.
    ///
    /// # Errors
    /// Writing failed.
    pub fn diagnose(&mut self, input: &Input, shown: &str, problem: &Problem) -> io::Result<()> {
        if self.json {
            return Ok(());
        }
        self.out.flush()?;
        let mut err = io::stderr().lock();
        err.write_all(render_diagnostic(&input.origin, shown, problem).as_bytes())?;
        err.flush()
    }

    /// Flushes and returns the exit status: 0 if every input was fine,
    /// 1 if any was rejected.
    ///
    /// # Errors
    /// Writing failed.
    pub fn finish(mut self) -> io::Result<ExitCode> {
        self.out.flush()?;
        Ok(if self.rejected {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        })
    }
}

/// Widest stretch of input shown around an error.
const CONTEXT: usize = 100;

/// rustc-like: `error: message`, where it is, the input and a caret line
/// under the offending bytes. Control characters are shown as U+FFFD so
/// that binary input cannot drive the terminal; long inputs are cut to a
/// window around the error.
pub fn render_diagnostic(origin: &Origin, text: &str, problem: &Problem) -> String {
    let len = text.len();
    let floor = |mut i: usize| {
        i = i.min(len);
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = floor(problem.span.start);
    let end = floor(problem.span.end.max(start)).max(start);
    // the window shown
    let from = floor(start.saturating_sub(CONTEXT / 2));
    let to = floor(start.saturating_add(CONTEXT));
    let mut shown = String::new();
    let mut carets = String::new();
    if from > 0 {
        shown.push('…');
        carets.push(' ');
    }
    for (i, c) in text[from..to].char_indices() {
        let at = from + i;
        let c = if c.is_control() && c != '\t' {
            '\u{FFFD}'
        } else {
            c
        };
        shown.push(c);
        if at < start {
            carets.push(if c == '\t' { '\t' } else { ' ' });
        } else if at < end {
            carets.push('^');
        }
    }
    if to < len {
        shown.push('…');
    }
    if end == start {
        carets.push('^');
    }
    format!(
        "error: {}\n --> {}, byte {}\n  |\n  | {}\n  | {}\n",
        problem.message,
        origin.describe(),
        problem.span.start,
        shown,
        carets.trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_the_range() {
        let p = Problem::new("bad", 16..17);
        let d = render_diagnostic(&Origin::Arg(1), "f32[3,5]{1,0:T(2;2)}", &p);
        assert_eq!(
            d,
            "error: bad\n --> argument 1, byte 16\n  |\n  | f32[3,5]{1,0:T(2;2)}\n  |                 ^\n"
        );
    }

    #[test]
    fn caret_past_the_end_and_out_of_range_spans() {
        let p = Problem::new("end", 3..3);
        assert!(render_diagnostic(&Origin::Stdin(2), "f32", &p).ends_with("  | f32\n  |    ^\n"));
        let p = Problem::new("far", 99..120);
        assert!(render_diagnostic(&Origin::Stdin(2), "f32", &p).ends_with("  |    ^\n"));
    }

    #[test]
    fn long_input_is_windowed_and_controls_hidden() {
        let text = format!("{}\u{1b}x{}", "a".repeat(5000), "b".repeat(5000));
        let p = Problem::new("here", 5001..5002);
        let d = render_diagnostic(&Origin::Arg(1), &text, &p);
        assert!(d.len() < 400, "{d}");
        assert!(!d.contains('\u{1b}'));
        let lines: Vec<&str> = d.lines().collect();
        let caret = lines[4].find('^').unwrap();
        assert_eq!(lines[3].chars().nth(caret), Some('x'));
    }

    #[test]
    fn multibyte_input_keeps_columns() {
        let p = Problem::new("x", 4..5);
        let d = render_diagnostic(&Origin::Arg(1), "é[]]", &p);
        assert!(d.ends_with("  | é[]]\n  |    ^\n"), "{d}");
    }

    #[test]
    fn lines_are_cut_not_buffered_whole() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nnext\n");
        let mut r = io::Cursor::new(data);
        let mut buf = Vec::new();
        assert_eq!(read_line_limited(&mut r, &mut buf).unwrap(), Some(true));
        assert_eq!(buf.len(), MAX_LINE + 1);
        assert_eq!(read_line_limited(&mut r, &mut buf).unwrap(), Some(false));
        assert_eq!(buf, b"next");
        assert_eq!(read_line_limited(&mut r, &mut buf).unwrap(), None);
    }

    #[test]
    fn invalid_utf8_is_a_defect_at_its_byte() {
        let i = Input::from_bytes(b"f32\xff[]", Origin::Stdin(1), false);
        assert_eq!(i.defect.unwrap().span, 3..6);
        assert_eq!(i.text, "f32\u{FFFD}[]");
    }
}
