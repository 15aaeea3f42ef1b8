"""Retrieval evidence + lexical signals → is the question covered by the glossary, and by what.

Thresholds and margins were calibrated on the dev rows of eval/data/retrieval.jsonl and
eval/data/problems.jsonl (in scope) against eval/data/out_of_scope.jsonl with the default model
(multilingual-e5-small) and the fusion weights in search/retrieval.py, by eval/tune_scope.py:
see docs/benchmarks.md. A different embedding
model needs re-calibration (`assistant eval answers` shows refusal and false-refusal rates).

Whether the glossary covers the question is the `coverage`'s call (search/coverage.py): the
thresholds below, or a logistic model over the same evidence and the rules' verdict, trained on
dev rows by eval/train_scope.py. Which entries answer, and whether as a comparison, stays here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Literal

from assistant.search.coverage import Coverage, RuleCoverage, ScopeEvidence, ScopeFacts
from assistant.search.retrieval import Retrieval
from assistant.text.tokens import Tokens
from assistant.understanding.reader import ParsedMessage
from assistant.understanding.signals import Signals
from assistant.understanding.vocabulary import Vocabulary, is_latin

COS_SURE = 0.88  # dense similarity that alone means the glossary covers the question
COS_MAYBE = 0.80  # covered only if BM25 agrees
# cosine to one of an entry's customer questions that alone means the glossary covers it: a
# problem or an English question matches a customer's wording better than the entry's own text
Q_SURE = 0.885
# …and its entry is among this many best of the text or BM25 leg (dev: a plateau from 8 to 20;
# without it, 0.924 instead of 0.941 of off-topic dev rows refused, in-scope refusals equal)
Q_AGREE = 12
BM25_MIN = 5.0
PAIR_MARGIN = 0.6  # fused-score gap under which the runner-up joins a comparison
RUNNER_UP = 0.35  # fused-score gap under which the runner-up supports a term answer
UNSURE_MARGIN = 0.25  # the same, when the question names no entry and similarity is modest
UNSURE_ROOM = 1
RULES = RuleCoverage()


@dataclass(frozen=True)
class Scope:
    in_scope: bool
    near_domain: bool = False  # GPU/AI-adjacent but not in the glossary → «нет статьи», nearest
    slugs: list[str] = field(default_factory=list)
    comparison: bool = False
    confidence: Literal["high", "medium", "low"] = "medium"
    unknown_term: bool = False  # «что такое X» names nothing the glossary mentions (e.g. TPU)
    unlisted_card: bool = False  # names a card the catalogue has no sheet for (H20, A6000)
    # a recipe, a setup procedure, another vendor's product: no entry answers it however near,
    # not even FullGPU's own sentences («скиньте k8s-манифест под 8 гпу на вашем сервере»)
    beyond: bool = False
    unstated: bool = False  # asks for a figure no near entry gives («задержка NVLink в мкс?»)


def _named(retrieval: Retrieval, sig: Signals, question: Tokens) -> list[str]:
    """Entries named in the question; a common-word alias («куда») counts only in context."""
    strong = [s for s, v in retrieval.alias.items() if v >= 1.0]
    best = max(retrieval.dense.values(), default=0.0)
    if not strong or sig.domain or sig.defined_term or best >= COS_MAYBE:
        return _by_rank(strong, retrieval)
    latin = any(any("a" <= c <= "z" for c in w) for w in question.words)
    return _by_rank(strong, retrieval) if latin else []


def _by_rank(slugs: list[str], retrieval: Retrieval) -> list[str]:
    rank = {h.slug: i for i, h in enumerate(retrieval.hits)}
    return sorted(slugs, key=lambda s: (rank.get(s, 99), -retrieval.alias.get(s, 0.0)))


def _covered(
    named: list[str],
    retrieval: Retrieval,
    unknown_term: bool,
    vocabulary: Vocabulary,
    q: Tokens,
    gpu: bool = False,
) -> bool:
    """`gpu`: the question names a catalogue GPU (H100, L40S…), ours to talk about."""
    if named:
        return True
    if unknown_term:
        return False
    best = max(retrieval.dense.values(), default=0.0)
    bm25 = max(retrieval.bm25.values(), default=0.0)
    if _question_sure(retrieval):
        return True
    if gpu and bm25 >= BM25_MIN:  # «какая память была у H100»: the glossary names the card
        return True
    if any(c.isascii() and c.isalpha() for c in "".join(vocabulary.unknown_words(q))):
        return best >= COS_SURE  # an unknown Latin term (SLURM, TPU) needs strong evidence
    return best >= COS_SURE or (best >= COS_MAYBE and bm25 >= BM25_MIN)


def _outside(
    message: ParsedMessage,
    question: Tokens,
    vocabulary: Vocabulary,
    retrieval: Retrieval,
    unlisted: bool,
) -> bool:
    """What no entry answers however near: another vendor's product or a recipe (signals.py), a
    setup procedure for a tool the glossary never names, a card the catalogue does not list, a
    model it has no record of (or the shape of one it does not list), and a how-to about such
    a tool whose words the leading entries mostly do not use. `unlisted`: the question names a
    card the catalogue lacks."""
    sig = message.signals
    if sig.outside or unlisted:
        return True
    if not message.models and vocabulary.unknown_model(question):
        return True
    if not message.models and message.quantities.architecture and vocabulary.names_model(question):
        return True  # «сколько слоёв у gemma 2 27b?»: no record of it, its shape is not ours
    if sig.code and _cover(question, retrieval, vocabulary) < CODE_COVER:
        return True  # «attn_implementation='sdpa' или …»: an API's settings, not an entry's
    if not (sig.procedure or sig.how_to) or not _unknown_tool(question, vocabulary):
        return False
    if sig.procedure:
        return True
    if _leads_by_full_name(retrieval):
        return False  # «в megatron выставили tensor parallel = 16 … как правильно делить?»
    return _cover(question, retrieval, vocabulary) < HOW_TO_COVER


def _states(figure: str, retrieval: Retrieval, vocabulary: Vocabulary) -> bool:
    """One of the first hits states a figure of the kind asked (lexicon.FIGURES)."""
    stated = vocabulary.entry_figures
    return any(figure in stated.get(h.slug, ()) for h in retrieval.hits[:FIGURE_HITS])


# the hits searched for a figure: the entries an answer would cite
FIGURE_HITS = 3


def _leads_by_full_name(retrieval: Retrieval) -> bool:
    """The leading entry is named by a name of several words («tensor parallel»): a how-to
    that names the entry itself asks what the entry says, whatever tool it runs in."""
    return bool(retrieval.hits) and retrieval.alias.get(retrieval.hits[0].slug, 0.0) >= NAME_WORDS


# words in the name that makes a how-to naming an unknown tool ours (dev: the declined how-tos
# that name an entry name it by one word or do not lead with it)
NAME_WORDS = 2.0


def _cover(question: Tokens, retrieval: Retrieval, vocabulary: Vocabulary) -> float:
    """Share of the question's content words the top three entries' texts and questions use."""
    top = [h.slug for h in retrieval.hits[:3]]
    return _lexical_cover(question, top, vocabulary)["top3_asked"]


# share of a how-to's content words the top three entries (text and customer questions) use,
# under which they do not answer it (dev: the blind near-domain how-tos 0.08-0.58, in-scope
# how-tos naming an unknown tool 0.67-1.0; at 0.6 one of those was refused, at 0.5 none)
HOW_TO_COVER = 0.5
# the same for a question that names an API, a setting or a flag as code (dev: the near-domain
# ones 0.13-0.46 under it, the in-scope ones 0.55-0.79: «в ds_config выставил zero stage 2»)
CODE_COVER = 0.5


def _unknown_tool(question: Tokens, vocabulary: Vocabulary) -> bool:
    """A Latin word the glossary never uses and that is no typo of one (OpenSM, toolkit)."""
    return any(is_latin(w) for w in vocabulary.unknown_words(question, english_guard=False))


def _question_sure(retrieval: Retrieval) -> bool:
    """A close customer question covers the message when another leg agrees on its entry: with
    ~25 chat-register questions per entry, an off-topic chat line («придумай название для
    канала про нейросети») finds a close one somewhere, but not in the entry the text leads to."""
    asked = retrieval.questions
    if not asked:
        return False
    slug = max(asked, key=asked.__getitem__)
    if asked[slug] < Q_SURE:
        return False
    others = (retrieval.dense, retrieval.bm25)
    return any(slug in sorted(leg, key=lambda s: -leg[s])[:Q_AGREE] for leg in others)


def decide_scope(
    message: ParsedMessage,
    question: Tokens,
    retrieval: Retrieval,
    vocabulary: Vocabulary,
    coverage: Coverage = RULES,
) -> Scope:
    """`question` is the message's own tokens, or the condensed question's for a follow-up;
    `coverage` decides in or out from the facts (search/coverage.py: the rules by default)."""
    unknown = vocabulary.unknown_term(message.term)
    # a condensed follow-up («а чем она лучше BF16?» + the topic) pairs its pronoun with the topic
    paired = message.paired or question.folded != message.tokens.folded
    unlisted = vocabulary.unknown_card(question)  # read once: the decision and the card answers
    scope = _decide(message, question, retrieval, vocabulary, unknown, paired, coverage, unlisted)
    # a card answer needs a sheet: a card the glossary names but the catalogue lacks has none
    sheetless = unlisted or vocabulary.card_without_sheet(question)
    return replace(scope, unknown_term=unknown, unlisted_card=sheetless)


def scope_facts(
    message: ParsedMessage,
    question: Tokens,
    retrieval: Retrieval,
    vocabulary: Vocabulary,
    unknown: bool,
    named: list[str],
) -> ScopeFacts:
    """The evidence the in/out decision reads, with the rules' own verdict among it."""
    sig = message.signals
    gpu = bool(message.gpus)
    dense = sorted(retrieval.dense.values(), reverse=True)
    best = dense[0] if dense else 0.0
    second = dense[1] if len(dense) > 1 else best
    bm25 = max(retrieval.bm25.values(), default=0.0)
    unknown_words = vocabulary.unknown_words(question, english_guard=False)
    latin = sum(is_latin(w) for w in unknown_words)
    n_latin = sum(is_latin(w) for w in question.words)
    share = n_latin / max(len(question.words), 1)
    foreign = sum(len(w) >= 2 and is_latin(w) and w not in vocabulary.words for w in question.words)
    lexical = _lexical_cover(question, [h.slug for h in retrieval.hits[:3]], vocabulary)
    return ScopeFacts(
        rules=float(_covered(named, retrieval, unknown, vocabulary, question, gpu)),
        named=float(len(named)),
        alias=max(retrieval.alias.values(), default=0.0),
        dense=best,
        dense_gap=best - second,
        asked=max(retrieval.questions.values(), default=0.0),
        asked_agrees=float(_question_sure(retrieval)),
        bm25=math.log1p(bm25),
        gpu=float(gpu),
        model=float(bool(message.models)),
        unknown_latin=math.log1p(latin),
        unknown_russian=math.log1p(len(unknown_words) - latin),
        unknown_term=float(unknown),
        domain=float(sig.domain),
        defined=float(bool(sig.defined_term)),
        comparison=float(sig.comparison_cue),
        words=math.log1p(len(question.words)),
        **lexical,
        latin=share,
        english=float(share > 0.5),
        foreign=math.log1p(foreign),
    )


def _lexical_cover(question: Tokens, top: list[str], vocabulary: Vocabulary) -> dict[str, float]:
    """How much of the question the leading entries' own words cover: a how-to for a tool the
    entry only names («как поднять OpenSM на InfiniBand-свитче») shares one word with it."""
    content = list(dict.fromkeys(m for m in question.lemmas if len(m) >= 2 and not m.isdigit()))
    if not content or not top:
        return dict.fromkeys(_LEXICAL, 0.0)
    text, asked = vocabulary.entry_text, vocabulary.entry_asked
    n = len(content)

    def share(sets: list[frozenset[str]]) -> tuple[float, int]:
        inside = sum(any(m in s for s in sets) for m in content)
        return inside / n, n - inside

    top_text, _ = share([text[top[0]]])
    top3_text, _ = share([text[s] for s in top])
    top_asked, top_missing = share([asked[top[0]]])
    top3_asked, top3_missing = share([asked[s] for s in top])
    return {
        "top_text": top_text,
        "top3_text": top3_text,
        "top_asked": top_asked,
        "top3_asked": top3_asked,
        "top_missing": math.log1p(top_missing),
        "top3_missing": math.log1p(top3_missing),
    }


_LEXICAL = ("top_text", "top3_text", "top_asked", "top3_asked", "top_missing", "top3_missing")


def _decide(
    message: ParsedMessage,
    question: Tokens,
    retrieval: Retrieval,
    vocabulary: Vocabulary,
    unknown: bool,
    paired: bool,
    coverage: Coverage,
    unlisted: bool,
) -> Scope:
    """`paired`: a weak cue («или», «лучше», «чем») stands between two of the entries named;
    `unlisted`: a card the catalogue has no sheet for is named."""
    sig = message.signals
    if sig.not_ours or not retrieval.hits:
        return Scope(in_scope=False, near_domain=False)
    if not message.log and sig.figure and not _states(sig.figure, retrieval, vocabulary):
        return Scope(in_scope=False, near_domain=True, beyond=True, unstated=True)
    if not message.log and _outside(message, question, vocabulary, retrieval, unlisted):
        return Scope(in_scope=False, near_domain=True, beyond=True)  # a pasted log is ours
    named = _named(retrieval, sig, question)
    # the rules read their own few facts (gathering every fact costs ~50 µs more a question);
    # «что такое X» for an X no entry names is refused whatever is decided (answer/answerer.py
    # puts «нет статьи о X» before any entry), so the rules say how: the nearest entries, or
    # the entry the question goes on to ask about («что такое DoRA — это разновидность лоры?»)
    refused_anyway = unknown and bool(sig.defined_term) and not message.defined
    if refused_anyway or isinstance(coverage, RuleCoverage):
        covered = _covered(named, retrieval, unknown, vocabulary, question, bool(message.gpus))
    else:
        facts = scope_facts(message, question, retrieval, vocabulary, unknown, named)
        covered = coverage.covers(ScopeEvidence(facts, question.word_lemmas, retrieval.vector))
    if not covered:
        return Scope(in_scope=False, near_domain=sig.domain or bool(sig.defined_term))
    top = retrieval.hits[0]
    if (sig.comparison_cue or (sig.weak_comparison and paired)) and len(named) >= 2:
        return Scope(True, slugs=named[:3], comparison=True, confidence="high")
    if sig.comparison_cue and len(retrieval.hits) > 1:
        second = retrieval.hits[1]
        if top.score - second.score <= PAIR_MARGIN or second.slug in named:
            return Scope(True, slugs=[top.slug, second.slug], comparison=True)
    best = max(retrieval.dense.values(), default=0.0)
    confidence: Literal["high", "medium", "low"] = (
        "high" if top.slug in named or best >= COS_SURE + 0.02 else "medium"
    )
    if not named and best < COS_SURE:
        confidence = "low"
    return Scope(
        True, slugs=[top.slug, *_runners_up(named, retrieval, confidence)], confidence=confidence
    )


def _runners_up(
    named: list[str], retrieval: Retrieval, confidence: Literal["high", "medium", "low"]
) -> list[str]:
    """Close runners-up add a supporting paragraph; when unsure, show the two next candidates."""
    top = retrieval.hits[0]
    extra = [s for s in named if s != top.slug][:1]
    margin, room = (RUNNER_UP, 1) if confidence == "high" else (UNSURE_MARGIN, UNSURE_ROOM)
    for hit in retrieval.hits[1:]:
        if len(extra) >= room or top.score - hit.score > margin:
            break
        if hit.slug not in extra:
            extra.append(hit.slug)
    return extra
