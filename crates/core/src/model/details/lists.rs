//! Whole field lists recently interned as a group's shape, so a list that
//! repeats (a probe kind's fields, a call's arguments and return value) is
//! found with one comparison of the list instead of a walk of the shape
//! tree field by field.

use crate::model::StrId;

/// Lists remembered (a power of two).
const LISTS: usize = 16;
/// Longest list remembered; longer ones always take the walk.
pub(super) const MAX_FIELDS: usize = 12;

/// One field of a list as its shape has it: key, kind, prefix.
pub(super) type ShapeField = (StrId, u8, StrId);

/// Direct-mapped by a hash of the list: each slot holds one list (its
/// fields in `fields`, `MAX_FIELDS` a slot), its length and its node.
#[derive(Clone, Debug)]
pub(super) struct ListMemo {
    fields: Vec<ShapeField>,
    len: [u8; LISTS],
    node: [u32; LISTS],
}

impl Default for ListMemo {
    fn default() -> Self {
        ListMemo {
            fields: vec![(0, 0, 0); LISTS * MAX_FIELDS],
            // Length 0 marks an empty slot (an empty list has no shape).
            len: [0; LISTS],
            node: [0; LISTS],
        }
    }
}

impl ListMemo {
    /// The slot of `list`.
    fn slot(list: &[ShapeField]) -> usize {
        let mut hash = list.len() as u32;
        for &(key, kind, prefix) in list {
            hash =
                (hash ^ key ^ prefix.rotate_left(16) ^ u32::from(kind)).wrapping_mul(0x9e37_79b1);
        }
        (hash >> (32 - LISTS.trailing_zeros())) as usize
    }

    /// The node of `list`, if it is remembered.
    pub fn find(&self, list: &[ShapeField]) -> Option<u32> {
        if list.is_empty() || list.len() > MAX_FIELDS {
            return None;
        }
        let slot = Self::slot(list);
        let len = usize::from(*self.len.get(slot)?);
        let kept = self
            .fields
            .get(slot * MAX_FIELDS..slot * MAX_FIELDS + len)?;
        (kept == list).then(|| self.node.get(slot).copied())?
    }

    /// Remembers that `list` is the shape `node`.
    pub fn keep(&mut self, list: &[ShapeField], node: u32) {
        if list.is_empty() || list.len() > MAX_FIELDS {
            return;
        }
        let slot = Self::slot(list);
        let (Some(len), Some(kept), Some(at)) = (
            self.len.get_mut(slot),
            self.fields
                .get_mut(slot * MAX_FIELDS..slot * MAX_FIELDS + list.len()),
            self.node.get_mut(slot),
        ) else {
            return;
        };
        kept.copy_from_slice(list);
        *len = list.len() as u8;
        *at = node;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_found_only_whole_and_as_last_kept_in_its_slot() {
        let mut memo = ListMemo::default();
        let list = [(1, 2, 0), (3, 2, 0), (4, 7, 9)];
        assert_eq!(memo.find(&list), None);
        memo.keep(&list, 5);
        assert_eq!(memo.find(&list), Some(5));
        // A prefix, a longer list or another kind is another list.
        assert_eq!(memo.find(&list[..2]), None);
        assert_eq!(
            memo.find(&[(1, 2, 0), (3, 2, 0), (4, 7, 9), (1, 2, 0)]),
            None
        );
        assert_eq!(memo.find(&[(1, 2, 0), (3, 3, 0), (4, 7, 9)]), None);
        // Kept again (as after an index rebuild), the newer node counts.
        memo.keep(&list, 6);
        assert_eq!(memo.find(&list), Some(6));
        // Empty and too long lists are never kept.
        memo.keep(&[], 1);
        assert_eq!(memo.find(&[]), None);
        let long = [(1, 2, 0); MAX_FIELDS + 1];
        memo.keep(&long, 2);
        assert_eq!(memo.find(&long), None);
    }
}
