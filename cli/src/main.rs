//! The `tilelayout` command: shapes, indices and slots of XLA
//! tiled layouts from a shell or a script.
//!
//! Every subcommand takes its inputs as arguments, or `-` to read one a
//! line from stdin, and `--json` to print one JSON object a line, in input
//! order. Exit status: 0 when every input was fine, 1 when any was
//! rejected, 2 on usage errors (and on I/O errors).
//!
//! Wiring only: each subcommand is a file in `cmd/`; inputs, outputs and
//! the exit status are in `io`.
#![forbid(unsafe_code)]

mod cmd;
mod io;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use cmd::Failure;

/// Exit status for usage errors and I/O errors (clap's for usage errors).
const USAGE: u8 = 2;

/// Array tiles and memory layouts: XLA's tiled layouts from the shell.
#[derive(Parser, Debug)]
#[command(name = "tilelayout", version, about, long_about = None, after_help = AFTER_HELP)]
struct Cli {
    /// Print one JSON object a line (errors are fields, not stderr).
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

const AFTER_HELP: &str = "\
Exit status: 0 every input was fine, 1 some input was rejected, 2 usage error.

Examples:
  tilelayout parse 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}'
  tilelayout index 'f32[3,5]{1,0:T(2,2)}' 2,3
  tilelayout coords 'f32[3,5]{1,0:T(2,2)}' 9
  tilelayout tpu 'bf16[2,1024]' 'f32[3,5]{0,1}'
  tilelayout draw 'f32[4,8]{1,0:T(2,4)(2,1)}' --svg fig2.svg
  tilelayout draw 'Sw<3,3,3> o _0 o (8,64):(64,1)' --svg swizzle.svg
  cut -f1 shapes.tsv | tilelayout parse - --json
  tilelayout dump /tmp/xla_dump --top 5
  tilelayout cute from-xla 'f32[3,5]{1,0:T(2,2)}'
  tilelayout cute crd2idx '(_2,(_3,_4)):(_12,(_4,_1))' '(1,(0,1))'";

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse shapes: canonical text, validity, physical and tiled dims, sizes.
    Parse(cmd::parse::Args),
    /// The slot (linear index in storage) of logical coordinates.
    Index(cmd::index::Args),
    /// The logical coordinates stored at a slot, or padding.
    Coords(cmd::coords::Args),
    /// The layout XLA's TPU compiler gives an array: `bf16[1024,1024]` or
    /// `f32[3,5]{0,1}`, with its bytes and padding.
    Tpu(cmd::tpu::Args),
    /// Pictures of layouts, XLA's or CuTe's: slots, tiles, padding and
    /// memory, or SVG.
    Draw(cmd::draw::Args),
    /// Memory and padding report of XLA dump files (`--xla_dump_to`):
    /// buffer assignments, HLO modules, or directories of them.
    Dump(cmd::dump::Args),
    /// CuTe's layout algebra on CuTe-notation layouts, and XLA layouts as
    /// CuTe layouts: `cute from-xla 'f32[3,5]{1,0:T(2,2)}'`.
    Cute(cmd::cute::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = io::Output::new(cli.json);
    let (name, run) = match &cli.command {
        Command::Parse(a) => ("parse", cmd::parse::run(a, &mut out)),
        Command::Index(a) => ("index", cmd::index::run(a, &mut out)),
        Command::Coords(a) => ("coords", cmd::coords::run(a, &mut out)),
        Command::Tpu(a) => ("tpu", cmd::tpu::run(a, &mut out)),
        Command::Draw(a) => ("draw", cmd::draw::run(a, &mut out)),
        Command::Dump(a) => ("dump", cmd::dump::run(a, &mut out)),
        Command::Cute(a) => ("cute", cmd::cute::run(a, &mut out)),
    };
    let result = run.and_then(|()| out.finish().map_err(Failure::Io));
    match result {
        Ok(code) => code,
        Err(Failure::Usage(message)) => {
            let mut command = Cli::command();
            command.build(); // propagates the global `--json` and the bin name
            let mut sub = command
                .find_subcommand_mut(name)
                .cloned()
                .unwrap_or(command);
            sub.error(clap::error::ErrorKind::WrongNumberOfValues, message)
                .exit()
        }
        // like most command-line tools: a closed pipe ends the output quietly
        Err(Failure::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(USAGE)
        }
    }
}
