/**
 * The lines of a matrix campaign in words: an interaction (how much larger a condition's
 * effect is for one agent than for another) and a condition that helps one agent and hurts
 * another. Figures in points, as the verdict lines give them.
 */
import { phraseOf } from './verdict.js';
import { intervalWords, pts } from './verdict-words.js';

interface EffectLike {
  readonly difference: number;
  readonly ci95: readonly [number, number];
}

/** What an interaction line is made of (benchmark.json's `agents.interactions`, less its text). */
export interface InteractionFigures {
  readonly condition: string;
  readonly measure: string;
  readonly agent_a: string;
  readonly agent_b: string;
  readonly effect_a: EffectLike;
  readonly effect_b: EffectLike;
  readonly difference: number;
  readonly ci95: readonly [number, number];
  readonly excludes_zero: boolean;
}

/**
 * "with_skill's effect (passes the checks) is 100 pts larger for claude-code than for codex
 * [15, 149]: +100 pts vs ±0 pts". The agent whose effect is larger comes first, so that the
 * number reads as a size; its interval turns with it.
 */
export function interactionText(i: InteractionFigures): string {
  const swap = i.difference < 0;
  const [first, second] = swap ? [i.agent_b, i.agent_a] : [i.agent_a, i.agent_b];
  const [e1, e2] = swap ? [i.effect_b, i.effect_a] : [i.effect_a, i.effect_b];
  const ci: [number, number] = swap ? [-i.ci95[1], -i.ci95[0]] : [i.ci95[0], i.ci95[1]];
  const size = Math.abs(i.difference);
  const how =
    size === 0
      ? `is the same for ${first} and for ${second}`
      : `is ${pts(size).replace(/^\+/u, '')} larger for ${first} than for ${second}`;
  const chance = i.excludes_zero ? '' : ' (could be chance: its interval reaches 0)';
  return `${i.condition}'s effect (${phraseOf(i.measure)}) ${how}${intervalWords(ci)}: ${pts(e1.difference)} vs ${pts(e2.difference)}${chance}`;
}

/** "with_skill helps claude-code and hurts gemini-cli (passes the checks)". */
export function oppositeText(o: {
  readonly condition: string;
  readonly measure: string;
  readonly helps: readonly string[];
  readonly hurts: readonly string[];
}): string {
  return `${o.condition} helps ${o.helps.join(' and ')} and hurts ${o.hurts.join(' and ')} (${phraseOf(o.measure)})`;
}
