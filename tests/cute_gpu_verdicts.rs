//! The GPU layout types carry the same non-panicking result as the CuTe
//! layout types (`CuteType::RESULT`): a valid type's result is its
//! `LAYOUT`, an invalid one's verdict names the type and what to change,
//! and GPU layouts are operands of the CuTe operation types.

use tilelayout::algebra::{logical_divide, AnyLayout, CuteLayout, Tiler};
use tilelayout::gpu::{
    BaseTileRowMajor, Blocked, BlockedColMajor, BlockedRowMajor, Bytes128, Bytes64, ColMajor,
    Layout2, MatrixLayout, RowMajor, Swizzle, Swizzled, SwizzledColMajor, SwizzledRowMajor,
};
use tilelayout::{cute, CuteType, LogicalDivide};

/// A valid type: its verdict is OK and its result is `LAYOUT` (plain when
/// unswizzled).
fn valid<L: Layout2>() {
    assert!(L::VERDICT.is_ok(), "{:?}", L::VERDICT);
    let composed = match L::RESULT.unwrap() {
        AnyLayout::Plain(l) => {
            assert_eq!(L::LAYOUT.swizzle.bits(), 0);
            l
        }
        AnyLayout::Swizzled(c) => {
            assert_eq!(c, L::LAYOUT);
            c.layout
        }
    };
    assert_eq!(composed, L::LAYOUT.layout);
}

#[test]
fn valid_gpu_layouts_have_their_layout_as_result() {
    valid::<RowMajor<3, 5>>();
    valid::<ColMajor<64, 64>>();
    valid::<MatrixLayout<4, 8, 100, 1>>();
    valid::<Blocked<RowMajor<4, 4>, ColMajor<2, 2>>>();
    valid::<BlockedRowMajor<64, 64, RowMajor<8, 32>>>();
    valid::<BlockedColMajor<16, 24, ColMajor<4, 8>>>();
    valid::<Swizzled<RowMajor<8, 32>, Swizzle<3, 2, 3>>>();
    valid::<Swizzled<RowMajor<64, 96>, Swizzle<2, 1, -3>>>();
    valid::<SwizzledRowMajor<f32, Bytes128, 64, 64>>();
    valid::<SwizzledColMajor<half::bf16, Bytes64, 64, 32>>();
    valid::<Blocked<RowMajor<2, 2>, SwizzledRowMajor<f32, Bytes128, 8, 32>>>();
    valid::<BaseTileRowMajor>();
}

fn message<L: CuteType>() -> &'static str {
    L::VERDICT.message().expect("an invalid type")
}

#[test]
fn a_swizzle_that_is_not_one_names_itself_and_the_fix() {
    let m = message::<Swizzled<RowMajor<64, 64>, Swizzle<3, 3, 2>>>();
    assert!(m.starts_with("Sw<3,3,2>: swizzle Sw<B,M,S> needs"), "{m}");
    assert!(m.ends_with("use Swizzle<3, 3, 3>"), "{m}");
    let m = message::<Swizzled<RowMajor<64, 64>, Swizzle<3, 3, -2>>>();
    assert!(m.ends_with("use Swizzle<3, 3, -3>"), "{m}");
    // the swizzle's own result, without a layout
    assert!(Swizzle::<3, 3, 2>::RESULT.is_err());
    assert!(Swizzle::<3, 3, 3>::RESULT.is_ok());
    // out of range bits: the core's message, no shift hint
    let m = message::<Swizzled<RowMajor<64, 64>, Swizzle<20, 10, 40>>>();
    assert!(
        m.starts_with("Sw<20,10,40>: ") && !m.contains("use Swizzle"),
        "{m}"
    );
}

#[test]
fn each_gpu_mistake_has_its_verdict() {
    let cases = [
        (
            message::<Swizzled<RowMajor<8, 32>, Swizzle<3, 3, 3>>>(),
            "Swizzled<L, Sw>: the swizzle permutes aligned blocks of 512 offsets (2^(M+|S|+B)) but L spans 256 (L = (_8,_32):(_32,_1)); use a tile whose span is a multiple of the block, or a smaller swizzle",
        ),
        (
            message::<Swizzled<Swizzled<RowMajor<8, 32>, Swizzle<3, 2, 3>>, Swizzle<3, 2, 3>>>(),
            "Swizzled<L, Sw>: L is already swizzled (L = Sw<3,2,3> o _0 o (_8,_32):(_32,_1)); a swizzle of a swizzle is not a composed layout: swizzle the unswizzled layout",
        ),
        (
            message::<RowMajor<0, 64>>(),
            "MatrixLayout<0, 64, 64, 1>: a GPU layout has at least one row and one column; use positive ROWS and COLS",
        ),
        (
            message::<BlockedRowMajor<64, 60, RowMajor<8, 32>>>(),
            "BlockedRowMajor<64, 60, Inner>: needs the block's columns to divide C: change C or the block (the block is 8 × 32)",
        ),
        (
            message::<BlockedColMajor<60, 64, RowMajor<8, 32>>>(),
            "BlockedColMajor<60, 64, Inner>: needs the block's rows to divide R: change R or the block (the block is 8 × 32)",
        ),
        (
            message::<Blocked<Swizzled<RowMajor<8, 32>, Swizzle<3, 2, 3>>, RowMajor<2, 2>>>(),
            "Blocked<Outer, Inner>: the outer layout is swizzled (Outer = Sw<3,2,3> o _0 o (_8,_32):(_32,_1)); swizzle the block layout instead",
        ),
        (
            message::<SwizzledRowMajor<f32, Bytes128, 8, 64, 96>>(),
            "SwizzledRowMajor<T, W, 8, 64, 96>: a swizzled shared tile needs a power-of-two stride (RS of a row-major tile): its swizzle reads the row's bits at log2(stride); use a stride of 128",
        ),
        (
            message::<SwizzledRowMajor<f32, Bytes128, 8, 64, 32>>(),
            "SwizzledRowMajor<T, W, 8, 64, 32>: a swizzled shared tile needs its stride (RS of a row-major tile) to hold a whole line: use a stride of at least 64",
        ),
        (
            message::<SwizzledRowMajor<f32, Bytes128, 4, 64>>(),
            "SwizzledRowMajor<T, W, 4, 64, 64>: a swizzled shared tile must be made of whole swizzle blocks: its strided extent (rows of a row-major tile) must be a non-zero multiple of 2^B = 8",
        ),
        (
            message::<SwizzledColMajor<f32, Bytes128, 48, 8>>(),
            "SwizzledColMajor<T, W, 48, 8, 48>: a swizzled shared tile must be made of whole swizzle blocks: its contiguous extent (columns of a row-major tile) must be a non-zero multiple of 2^(M+B) (one swizzle row of W bytes) = 32",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
    }
    // an operand's verdict is the block layout's
    let m = message::<Blocked<RowMajor<2, 2>, RowMajor<0, 4>>>();
    assert!(m.starts_with("MatrixLayout<0, 4, 4, 1>: "), "{m}");
}

#[test]
fn gpu_layouts_are_operands_of_cute_operations() {
    // a GPU layout's result feeds the CuTe operation types as any CuTe
    // type's does: the operation's result is the core's on the same layout
    type D = LogicalDivide<RowMajor<8, 8>, cute!(_4:_1)>;
    let a = CuteLayout::parse("(_8,_8):(_8,_1)").unwrap();
    let b = Tiler::layout(CuteLayout::parse("_4:_1").unwrap());
    let want = logical_divide(&a, &b).unwrap();
    assert_eq!(D::RESULT.unwrap(), AnyLayout::Plain(want));
    // and an operation on an invalid GPU layout carries its verdict
    type Bad = LogicalDivide<RowMajor<0, 8>, cute!(_4:_1)>;
    assert!(message::<Bad>().starts_with("MatrixLayout<0, 8, 8, 1>: "));
}
