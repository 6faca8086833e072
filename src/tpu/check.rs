//! Checking a layout against the policy: is `bf16[2,1024]{1,0:T(2,128)(2,1)}`
//! what XLA's TPU compiler would give, and if not, what differs.

use super::error::TpuError;
use super::policy::{tpu_choice_for, TpuChoice};
use crate::value::{Shape, XlaLayout};

/// The answer of [`check_layout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutCheck {
    /// The policy's choice for the same dims and `minor_to_major`, with the
    /// given memory space put back (the policy does not choose spaces).
    pub policy: TpuChoice,
    /// The given tiles differ from the policy's.
    pub tiles_differ: bool,
    /// The given `E(n)` differs from the policy's.
    pub element_size_differs: bool,
    /// Anything else differs: `L(n)`, split configs, `M(n)`.
    pub other_differs: bool,
}

impl LayoutCheck {
    /// Whether the layout is the policy's (memory space aside).
    pub const fn matches(&self) -> bool {
        !(self.tiles_differ || self.element_size_differs || self.other_differs)
    }
}

/// Compares `shape`'s layout with the one the TPU policy gives its element
/// type, dims and `minor_to_major`, ignoring the memory space `S(n)` (the
/// compiler places arrays; the policy only tiles them).
///
/// # Errors
/// As [`tpu_choice_for`]: no TPU format for the type, dynamic dims, an
/// invalid `minor_to_major`.
///
/// # Examples
/// ```
/// use tilelayout::{tpu::check_layout, value::parse_shape};
/// let c = check_layout(&parse_shape("bf16[2,1024]{1,0:T(2,128)(2,1)S(1)}")?)?;
/// assert!(c.matches());
/// let c = check_layout(&parse_shape("f32[3,5]{1,0:T(8,128)}")?)?;
/// assert!(c.tiles_differ);
/// assert_eq!(c.policy.shape.to_string(), "f32[3,5]{1,0:T(4,128)}");
/// # Ok::<(), tilelayout::tpu::TpuError>(())
/// ```
pub fn check_layout(shape: &Shape) -> Result<LayoutCheck, TpuError> {
    let mut policy = tpu_choice_for(shape)?;
    let given = shape.layout();
    let mut chosen: XlaLayout = *policy.shape.layout();
    chosen.memory_space = given.memory_space;
    policy.shape = policy.shape.with_layout(chosen);
    let tiles_differ = given.tiles() != chosen.tiles();
    let element_size_differs = given.element_size_in_bits != chosen.element_size_in_bits;
    let mut rest = *given;
    rest.element_size_in_bits = chosen.element_size_in_bits;
    let other_differs = !tiles_differ && rest != chosen;
    Ok(LayoutCheck {
        policy,
        tiles_differ,
        element_size_differs,
        other_differs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::parse_shape;

    fn check(text: &str) -> LayoutCheck {
        check_layout(&parse_shape(text).unwrap()).unwrap()
    }

    #[test]
    fn differences_are_told_apart() {
        assert!(check("f32[1024,1024]{1,0:T(8,128)}").matches());
        assert!(check("s32[]{:T(128)S(6)}").matches());
        let c = check("s4[64,256]{1,0:T(8,128)(8,1)}");
        assert!(c.element_size_differs && !c.tiles_differ);
        let c = check("f32[1024,1024]{1,0:T(8,128)L(1024)}");
        assert!(c.other_differs && !c.matches());
        let c = check("f32[1024,1024]{0,1:T(8,128)}");
        assert!(c.matches(), "the policy follows the given minor_to_major");
    }
}
