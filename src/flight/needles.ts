import { createHash } from 'node:crypto';
import type { Needle, NeedleSeen } from './types.js';

/** Harness texts remembered as searched; past it, a text is searched again (still correct). */
const MAX_SEEN = 100_000;
/** A prompt shorter than this is taken out only where it is a whole text, never inside one. */
const MIN_EXCLUDED_INSIDE = 24;

/**
 * The treatment check's search, request by request: does a text the agent's harness wrote
 * (see `harnessTexts`) hold one of the needles? Whitespace is ignored on both sides (agents
 * wrap and indent what they list), and the user's prompts are taken out first, so that a
 * prompt quoting a skill is not the skill reaching the model. A request that could not be
 * read is noted: a needle never seen is then undecided, not absent.
 */
export class NeedleSearch {
  private readonly needles: readonly { id: string; all: string[] }[];
  private readonly firstSeq = new Map<string, number | null>();
  private readonly excluded: readonly string[];
  private readonly searched = new Set<string>();
  private missed = 0;
  private firstMiss: { seq: number; why: string } | null = null;

  constructor(needles: readonly Needle[], exclude: readonly string[] = []) {
    this.needles = needles.map((n) => ({ id: n.id, all: n.all.map(squeeze).filter(Boolean) }));
    for (const n of this.needles) this.firstSeq.set(n.id, null);
    this.excluded = [...new Set(exclude.map(squeeze).filter(Boolean))].sort(
      (a, b) => b.length - a.length,
    );
  }

  get active(): boolean {
    return this.needles.some((n) => this.firstSeq.get(n.id) === null);
  }

  /** Searches call `seq`'s harness texts; null: its request could not be read (`why`). */
  search(seq: number, texts: readonly string[] | null, why = 'not a request of its API'): void {
    if (!this.active) return;
    if (texts === null) {
      this.missed++;
      this.firstMiss ??= { seq, why };
      return;
    }
    for (const raw of texts) {
      const text = this.withoutPrompts(squeeze(raw));
      if (text.length < 4 || this.seenBefore(text)) continue;
      for (const n of this.needles) {
        if (this.firstSeq.get(n.id) !== null) continue;
        if (n.all.every((part) => text.includes(part))) this.firstSeq.set(n.id, seq);
      }
      if (!this.active) return;
    }
  }

  seen(): NeedleSeen[] {
    return [...this.firstSeq].map(([id, seq]) => ({ id, seq }));
  }

  /** Requests that could not be searched, and the first of them; null when every one was. */
  unsearched(): { count: number; first_seq: number; why: string } | null {
    return this.firstMiss
      ? { count: this.missed, first_seq: this.firstMiss.seq, why: this.firstMiss.why }
      : null;
  }

  private withoutPrompts(text: string): string {
    let out = text;
    for (const p of this.excluded) {
      if (out === p) return '';
      if (p.length >= MIN_EXCLUDED_INSIDE && out.includes(p)) out = out.split(p).join('\u0000');
    }
    return out;
  }

  private seenBefore(text: string): boolean {
    const key = text.length > 64 ? createHash('sha1').update(text).digest('base64') : text;
    if (this.searched.has(key)) return true;
    if (this.searched.size < MAX_SEEN) this.searched.add(key);
    return false;
  }
}

/** Without any whitespace: a needle is found however the agent wraps, indents or pads it. */
export function squeeze(s: string): string {
  return s.replace(/\s+/gu, '');
}
