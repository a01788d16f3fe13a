//! Adding detail fields while a trace is built: appending to an owner's
//! group or starting one, and putting the groups in owner order at the end.

use super::lists::MAX_FIELDS;
use super::value::Stored;
use super::{Details, Value, NO_SHAPE};
use crate::model::StrId;

impl Details {
    /// Makes room for about `n` more fields (a hint: one slot each, one
    /// group per few fields).
    pub(in crate::model) fn reserve(&mut self, n: usize) {
        let _ = self.payload.try_reserve_exact(n);
        let groups = n / 4;
        self.reserve_owners(groups);
        let _ = self.shape.try_reserve_exact(groups);
        let _ = self.first.try_reserve_exact(groups);
    }

    /// Makes room for exactly `groups` more groups and `slots` more payload
    /// slots, for a builder that counted them (a doubled column would hold
    /// up to twice its bytes until the end).
    pub(in crate::model) fn reserve_exact(&mut self, groups: usize, slots: usize) {
        let _ = self.payload.try_reserve_exact(slots);
        self.reserve_owners(groups);
        let _ = self.shape.try_reserve_exact(groups);
        let _ = self.first.try_reserve_exact(groups);
    }

    /// Makes room for `groups` more owners when the column is written
    /// out (an implied one is made as long as the shapes' column when it
    /// has to be written: [`Details::owners_mut`]).
    fn reserve_owners(&mut self, groups: usize) {
        if !self.implied_owners() {
            let _ = self.owner.try_reserve_exact(groups);
        }
    }

    /// Starts a group of `owner`: its shape `node`, its payload from slot
    /// `first`. The owner column stays implied while group `i` is owner
    /// `i`'s.
    fn start_group(&mut self, owner: u32, node: u32, first: u32) {
        if !(self.implied_owners() && owner as usize == self.groups()) {
            self.owners_mut().push(owner);
        }
        self.shape.push(node);
        self.first.push(first);
    }

    /// Appends one field of `owner`: to the last group when it is `owner`'s
    /// (its shape grows by the field), else in a new group (the builder sorts
    /// by owner when it finishes).
    pub(in crate::model) fn push(&mut self, owner: u32, key: StrId, value: Value) {
        let stored = value.store();
        let payload_end = self.payload.len() as u32;
        // The last group grows when it is `owner`'s and its payload ends
        // where the payload does (its parent shape is then the group's).
        let extends = match (self.last_owner(), self.shape.last(), self.first.last()) {
            (Some(last_owner), Some(&shape), Some(&first)) if last_owner == owner => {
                let end = self.shapes.index().end.get(shape as usize).copied();
                (end.and_then(|end| first.checked_add(end)) == Some(payload_end)).then_some(shape)
            }
            _ => None,
        };
        let node = self
            .shapes
            .child(extends.unwrap_or(NO_SHAPE), key, stored.kind, stored.prefix);
        match (extends, self.shape.last_mut()) {
            (Some(_), Some(last)) => *last = node,
            _ => self.start_group(owner, node, payload_end),
        }
        self.push_slots(&stored);
    }

    /// Appends fields of one owner, in order. A list that starts a group
    /// of its own and was interned lately is found whole (see
    /// [`ListMemo`](super::lists::ListMemo)); others are walked field by
    /// field, and remembered.
    pub(in crate::model) fn extend(&mut self, owner: u32, fields: &[(StrId, Value)]) {
        let fresh = self.last_owner() != Some(owner);
        let mut list = [(0, 0, 0); MAX_FIELDS];
        let list = match list.get_mut(..fields.len()) {
            Some(list) if fresh => list,
            _ => return self.extend_walk(owner, fields),
        };
        for (field, &(key, value)) in list.iter_mut().zip(fields) {
            let stored = value.store();
            *field = (key, stored.kind, stored.prefix);
        }
        if let Some(node) = self.shapes.find_list(list) {
            return self.push_group(owner, node, fields);
        }
        self.extend_walk(owner, fields);
        if let Some(&node) = self.shape.last() {
            self.shapes.keep_list(list, node);
        }
    }

    /// A new group of `owner` whose shape `node` is known to be `fields`'
    /// keys, kinds and fixed texts: only the payload is written.
    fn push_group(&mut self, owner: u32, node: u32, fields: &[(StrId, Value)]) {
        self.start_group(owner, node, self.payload.len() as u32);
        for &(_, value) in fields {
            self.push_slots(&value.store());
        }
    }

    /// [`Details::extend`] field by field through the shape tree.
    fn extend_walk(&mut self, owner: u32, fields: &[(StrId, Value)]) {
        let Some((&(key, value), rest)) = fields.split_first() else {
            return;
        };
        self.push(owner, key, value);
        // The group the first field went to is now the last one, `owner`'s,
        // and ends where the payload does: the others join it directly.
        for &(key, value) in rest {
            let Some(&parent) = self.shape.last() else {
                return self.push(owner, key, value);
            };
            let stored = value.store();
            let node = self.shapes.child(parent, key, stored.kind, stored.prefix);
            if let Some(last) = self.shape.last_mut() {
                *last = node;
            }
            self.push_slots(&stored);
        }
    }

    /// Appends fields of `owner` that always come as one list (the same
    /// keys, kinds and fixed texts each time `memo` is passed: e.g. the
    /// fixed fields of a call site), as [`Details::extend`] does. The first
    /// time the list's shape is looked up and kept in `memo`; after that only
    /// the payload is written, sparing a walk of the shape tree per field.
    /// `memo` starts as [`NO_SHAPE`] and belongs to this `Details` only.
    pub(in crate::model) fn extend_memo(
        &mut self,
        owner: u32,
        memo: &mut u32,
        fields: &[(StrId, Value)],
    ) {
        // A known shape only names a group of its own: a list that would
        // join the owner's last group goes the long way.
        let fresh = self.last_owner() != Some(owner);
        if !fresh || fields.is_empty() {
            return self.extend(owner, fields);
        }
        if (*memo as usize) < self.shapes.len() {
            return self.push_group(owner, *memo, fields);
        }
        self.extend(owner, fields);
        if let Some(&node) = self.shape.last() {
            *memo = node;
        }
    }

    /// Appends the payload slots of one stored value.
    fn push_slots(&mut self, stored: &Stored) {
        match stored.len {
            0 => {}
            1 => self.payload.push(stored.slots[0]),
            _ => self.payload.extend_from_slice(&stored.slots),
        }
    }

    /// Puts the groups in owner order, keeping the order of one owner's
    /// groups (a counting sort: owners are span or marker indices). The
    /// payload stays where it is: groups point into it.
    pub(in crate::model) fn sort_by_owner(&mut self) {
        if self.implied_owners() || self.owner.windows(2).all(|w| w[0] <= w[1]) {
            return;
        }
        let owners = self.owner.iter().max().map_or(0, |&m| m as usize + 1);
        if owners > self.owner.len().saturating_mul(4).max(1 << 16) {
            // Few groups on far-apart owners: sorting beats counting.
            return self.sort_sparse();
        }
        // First position of each owner's groups in the sorted columns.
        let mut next = vec![0u32; owners + 1];
        for &owner in &self.owner {
            next[owner as usize + 1] += 1;
        }
        for i in 1..next.len() {
            next[i] += next[i - 1];
        }
        // Where each group goes; the columns are then permuted in place,
        // cycle by cycle, so finishing holds one extra column, not three.
        let mut dest: Vec<u32> = Vec::with_capacity(self.owner.len());
        for &owner in &self.owner {
            let slot = &mut next[owner as usize];
            dest.push(*slot);
            *slot += 1;
        }
        drop(next);
        for at in 0..dest.len() {
            // Each swap puts the group at `at` in its final place `to`.
            while dest[at] as usize != at {
                let to = dest[at] as usize;
                self.owner.swap(at, to);
                self.shape.swap(at, to);
                self.first.swap(at, to);
                dest.swap(at, to);
            }
        }
    }

    /// [`Details::sort_by_owner`] by sorting (owner, position) keys.
    fn sort_sparse(&mut self) {
        let mut order: Vec<u64> = self
            .owner
            .iter()
            .enumerate()
            .map(|(at, &owner)| u64::from(owner) << 32 | at as u64)
            .collect();
        order.sort_unstable();
        let pick = |at: &u64| (*at & 0xffff_ffff) as usize;
        self.owner = order.iter().map(|at| (at >> 32) as u32).collect();
        self.shape = order.iter().map(|at| self.shape[pick(at)]).collect();
        self.first = order.iter().map(|at| self.first[pick(at)]).collect();
    }

    /// Renumbers owners through `new_index` (old index → new) and re-sorts.
    pub(in crate::model) fn renumber(&mut self, new_index: &[u32]) {
        for owner in self.owners_mut() {
            *owner = new_index.get(*owner as usize).copied().unwrap_or(*owner);
        }
        self.sort_by_owner();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Field, StringTable};

    #[test]
    fn extend_builds_what_pushing_field_by_field_builds() {
        let mut strings = StringTable::default();
        let (a, b, c) = (
            strings.intern("a"),
            strings.intern("b"),
            strings.intern("c"),
        );
        let shapes: [&[(StrId, Value)]; 4] = [
            &[
                (a, Value::Int(1)),
                (b, Value::Fixed(c)),
                (c, Value::Hex(u64::MAX)),
            ],
            &[(b, Value::Fixed(a)), (a, Value::Int(-1 << 40))],
            &[(a, Value::Int(2)), (b, Value::Fixed(c)), (c, Value::Hex(7))],
            &[(b, Value::Fixed(b)), (a, Value::Numbered(c, 3))],
        ];
        let (mut pushed, mut extended) = (Details::default(), Details::default());
        // Owners repeat and shapes alternate, so lookups find nodes further
        // down their siblings' lists (which then move to the front).
        for (owner, fields) in [0, 0, 1, 2, 2, 3, 4, 5]
            .into_iter()
            .zip(shapes.iter().cycle())
        {
            for &(key, value) in *fields {
                pushed.push(owner, key, value);
            }
            extended.extend(owner, fields);
        }
        assert_eq!(pushed, extended);
        assert!(extended.is_consistent());
        // An index rebuilt from the columns (no remembered lookups, lists in
        // node order) finds the same nodes.
        let mut rebuilt = extended.clone();
        rebuilt.shapes.forget_index();
        for (owner, fields) in (6..14).zip(shapes.iter().cycle()) {
            extended.extend(owner, fields);
            rebuilt.extend(owner, fields);
        }
        assert_eq!(rebuilt, extended);
        assert_eq!(
            extended.owners().collect::<Vec<u32>>(),
            (0..14).collect::<Vec<u32>>()
        );
        let values: Vec<String> = extended
            .fields_of(0, &strings)
            .into_iter()
            .map(|f| f.value)
            .collect();
        assert_eq!(
            values,
            vec!["1", "c", "0xffffffffffffffff", "a", "-1099511627776"]
        );
    }

    #[test]
    fn fields_added_out_of_order_are_grouped_by_owner_in_added_order() {
        let mut strings = StringTable::default();
        let k = strings.intern("k");
        let mut d = Details::default();
        d.push(5, k, Value::Int(1));
        d.push(2, k, Value::Int(2));
        d.push(5, k, Value::Int(3));
        d.push(2, k, Value::Int(4));
        let mut sparse = d.clone();
        d.sort_by_owner();
        sparse.sort_sparse();
        assert_eq!(d, sparse);
        assert!(d.is_consistent());
        assert_eq!(d.owner, vec![2, 2, 5, 5]);
        assert_eq!(d.len(), 4);
        let values: Vec<String> = d
            .fields_of(5, &strings)
            .into_iter()
            .map(|f| f.value)
            .collect();
        assert_eq!(values, vec!["1", "3"]);
        assert!(d.fields_of(3, &strings).is_empty());
        assert_eq!(d.owners_with(&Field::new("k", "4"), &strings), vec![2]);
        assert!(d.owners_with(&Field::new("x", "4"), &strings).is_empty());
        assert_eq!(d.grouped(&strings).len(), 2);
    }

    #[test]
    fn owners_stay_implied_while_group_i_is_owner_is() {
        let mut strings = StringTable::default();
        let k = strings.intern("k");
        let text = |d: &Details, owner| -> Vec<String> {
            let fields = d.fields_of(owner, &strings);
            fields.into_iter().map(|f| f.value).collect()
        };
        let mut d = Details::default();
        for owner in 0..5u32 {
            d.extend(owner, &[(k, Value::Int(i64::from(owner)))]);
        }
        assert!(d.implied_owners() && d.owner.is_empty());
        assert_eq!(d.owners().collect::<Vec<u32>>(), [0, 1, 2, 3, 4]);
        assert_eq!((d.groups_of(3), d.groups_of(9)), (3..4, 5..5));
        assert_eq!(d.last_owner(), Some(4));
        assert!(d.is_consistent());
        // A field for the last owner joins its group: still implied.
        d.push(4, k, Value::Int(40));
        assert!(d.implied_owners());
        assert_eq!(text(&d, 4), ["4", "40"]);
        // Owner 7 next: the column is written out, and reads the same.
        d.extend(7, &[(k, Value::Int(7))]);
        assert_eq!(d.owner, [0, 1, 2, 3, 4, 7]);
        assert!(d.is_consistent());
        assert_eq!(
            (text(&d, 2), text(&d, 7)),
            (vec!["2".into()], vec!["7".into()])
        );
        assert_eq!(d.owners_with(&Field::new("k", "7"), &strings), [7]);
        // A first group of another owner than 0 writes it out at once.
        let mut late = Details::default();
        late.push(3, k, Value::Int(1));
        assert_eq!(late.owner, [3]);
    }

    #[test]
    fn extend_memo_builds_what_extend_builds() {
        let mut strings = StringTable::default();
        let (a, b) = (strings.intern("a"), strings.intern("b"));
        // Lists of one shape each (kinds and fixed texts the same per list).
        let lists: [Vec<(StrId, Value)>; 3] = [
            vec![(a, Value::Fixed(b)), (b, Value::Int(7))],
            vec![(b, Value::Text(a)), (a, Value::Int(-1 << 40))],
            vec![(a, Value::Fixed(a))],
        ];
        let (mut plain, mut memoed) = (Details::default(), Details::default());
        let mut memos = [NO_SHAPE; 3];
        // Owner 1 twice: its second list joins its group the long way.
        for (at, owner) in [0, 1, 1, 2, 3, 4, 5, 6].into_iter().enumerate() {
            let pick = at % lists.len();
            let fields = &lists[pick];
            plain.extend(owner, fields);
            memoed.extend_memo(owner, &mut memos[pick], fields);
            // Another field after the list, as a span's own values come.
            plain.push(owner, b, Value::Int(at as i64));
            memoed.push(owner, b, Value::Int(at as i64));
        }
        assert_eq!(plain, memoed);
        assert!(memoed.is_consistent());
    }
}
