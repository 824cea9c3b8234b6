//! Bounds-checked integer reads from untrusted bytes, for the header parsers in `sniff` and
//! `image`. It owns only reading fixed-width big- and little-endian integers at an offset:
//! every read returns `None` when the slice is too short or the offset would overflow, so a
//! parser built on it cannot index out of bounds. It must never panic, allocate or do I/O.

pub(crate) fn be_u16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

pub(crate) fn le_u16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

pub(crate) fn le_u24(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(3)?)?;
    Some(u32::from_le_bytes([*s.first()?, *s.get(1)?, *s.get(2)?, 0]))
}

pub(crate) fn be_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

pub(crate) fn le_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

pub(crate) fn le_i32(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_in_both_byte_orders() {
        let b = [0x01, 0x02, 0x03, 0x04, 0xFF];
        assert_eq!(be_u16(&b, 0), Some(0x0102));
        assert_eq!(le_u16(&b, 0), Some(0x0201));
        assert_eq!(le_u24(&b, 1), Some(0x04_0302));
        assert_eq!(be_u32(&b, 0), Some(0x0102_0304));
        assert_eq!(le_u32(&b, 1), Some(0xFF04_0302));
        assert_eq!(le_i32(&[0xFD, 0xFF, 0xFF, 0xFF], 0), Some(-3));
    }

    #[test]
    fn short_input_and_huge_offsets_give_none() {
        let b = [0u8; 4];
        assert_eq!(be_u16(&b, 3), None);
        assert_eq!(le_u16(&b, 4), None);
        assert_eq!(le_u24(&b, 2), None);
        assert_eq!(be_u32(&b, 1), None);
        assert_eq!(le_u32(&[], 0), None);
        assert_eq!(le_i32(&b, 1), None);
        for at in [usize::MAX, usize::MAX - 1, usize::MAX - 3] {
            assert_eq!(be_u16(&b, at), None);
            assert_eq!(le_u16(&b, at), None);
            assert_eq!(le_u24(&b, at), None);
            assert_eq!(be_u32(&b, at), None);
            assert_eq!(le_u32(&b, at), None);
            assert_eq!(le_i32(&b, at), None);
        }
        assert_eq!(le_u32(&b, 0), Some(0));
    }
}
