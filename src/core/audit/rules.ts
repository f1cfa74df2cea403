/**
 * The audit's rules, in one place: the numbers the code uses and the sentences the view, the
 * CLI summary and the README print next to the figures they define.
 */
import { JUDGE_EXCERPT_CHARS } from '../text/judge-excerpt.ts';

/** A claim is grounded by overlap when at least this share of its distinct tokens occur in the document. */
export const OVERLAP_THRESHOLD = 0.6;

/** The pool and gauntlet judges of the v1.0 build read a document's first 2,500 characters. */
export { JUDGE_EXCERPT_CHARS };

export const RULES = {
  grounding:
    'A claim (the reference answer of a single_hop or timeline task, or one gold item of an aggregation or dossier task) is grounded when, for at least one of its documents (the task\'s gold_docs; an item\'s own doc_ids, or gold_docs when it has none), either the claim lowercased with whitespace runs collapsed to one space (Python: " ".join(s.lower().split())) is a substring of the document normalised the same way ("verbatim"), or at least 60% of the claim\'s distinct tokens occur among the document\'s tokens ("overlap"). An empty claim is not grounded. A claim whose documents could not all be read counts only if a document that was read grounds it.',
  overlapTokens:
    'Tokens: every run of two or more characters of [a-z0-9] in the lowercased text (Python: re.findall(r"[a-z0-9]{2,}", s.lower())), taken as a set. A claim with no such token can be grounded only verbatim.',
  passage:
    'Passage: for a verbatim match, its first occurrence; otherwise the shortest stretch of the document holding every claim token the document has (the earliest on ties).',
  cutoff:
    "Excerpt cut-off: the pool and gauntlet judges read only a document's first 2,500 characters (Python's text[:2500], counted in code points). A gold document is flagged when it grounds the claim but its passage starts at or after character 2,500, so the judge that pooled it could not have seen the evidence; a task is flagged when any of its gold documents is.",
  poolBias:
    "Pool bias: a submission's cited documents that are outside the task's gold set (gold_docs plus every item's doc_ids, the set citation precision uses), over the answerable tasks; \"gate citing only non-gold documents\" counts the tasks whose first 3 citations (the gate) name documents, none of them in the gold set. With judge verdicts from a cache: answers the judge found correct (single_hop, timeline) or partly correct (aggregation, dossier: an item matched) whose first 3 citations (the gate) hold no supporting document, so the cited score is 0, while the gate cites a document outside the gold set that may support the answer.",
} as const;
