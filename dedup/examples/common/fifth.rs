//! Which sentences of a treebank without a train split are held apart for testing, for the
//! examples that train on such treebanks (`train_tagger`, `train_korean`).

/// FNV-1a, 64 bits.
pub(crate) fn fnv1a(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Whether the sentence named `key` (`treebank/sent_id`, or `treebank/text` where sentences have
/// no id) is held apart: its FNV-1a hash is 0 modulo 5, a fixed fifth of the sentences.
pub(crate) fn held_apart(key: &str) -> bool {
    fnv1a(key).is_multiple_of(5)
}
