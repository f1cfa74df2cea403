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

/**
 * The same rules for a reader: in words, with the Python expression beside them for those who
 * want it (RULES above is what the report carries, and stays as it is).
 */
export const RULES_IN_WORDS = {
  grounding: {
    words:
      "A claim (the reference answer of a single_hop or timeline task, or one gold item of an aggregation or dossier task) is grounded when one of its documents holds it: the whole claim appears in that document word for word, ignoring case and spacing (verbatim), or at least 60% of the claim's distinct words appear somewhere in that one document (overlap). Words are runs of two or more letters or digits. The documents are the task's gold documents, or an item's own documents when it names them. An empty claim is not grounded; a claim whose documents were not all read counts only when a document that was read grounds it.",
    python: [
      'norm = lambda s: " ".join(s.lower().split())',
      'tokens = lambda s: set(re.findall(r"[a-z0-9]{2,}", s.lower()))',
      'verbatim = norm(claim) in norm(doc)',
      'overlap = len(tokens(claim) & tokens(doc)) >= 0.6 * len(tokens(claim))',
      'grounded = any(verbatim or overlap for doc in docs)',
    ],
  },
  cutoff: {
    words:
      "The pool and gauntlet judges read only a document's first 2,500 characters. A gold document is flagged when it grounds its claim but the evidence starts at character 2,500 or later, so the judge that pooled it could not have seen it; a task is flagged when any of its gold documents is. The evidence (passage) is the claim's first word-for-word occurrence, else the shortest stretch of the document holding every claim word the document has (the earliest on ties).",
    python: ['excerpt = text[:2500]  # code points', 'flagged = grounded and passage_start >= 2500'],
  },
  poolBias: {
    words:
      "For each submission, over the answerable tasks: the documents it cites that are not in the task's gold set (the gold documents and every item's documents, the set citation precision uses), and the tasks whose first 3 citations (the gate) name documents, none of them gold. With judge verdicts from a cache: answers the judge credited (a correct single_hop or timeline answer, a matched aggregation or dossier item) whose gate holds no supporting document, so the cited score is 0, while the gate cites a document outside the gold set that may support the answer.",
    python: [
      'gold = set(gold_docs) | {d for it in items for d in it["doc_ids"]}',
      'outside = [d for d in citations if d not in gold]',
      'gate_outside = bool(citations[:3]) and not set(citations[:3]) & gold',
    ],
  },
} as const;
