/**
 * Names and label values for Kubernetes objects. The API server refuses a
 * name that is not DNS-1123 or a label value over 63 characters or with a
 * '/', so values that do not fit are replaced by a hash of themselves.
 */
import { createHash } from 'node:crypto';

const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?)?$/;

/** The first `length` hex digits of the value's sha256. */
export function shortHash(value: string, length = 10): string {
  return createHash('sha256').update(value).digest('hex').slice(0, length);
}

/** The value itself when the API server accepts it as a label value, else its hash. */
export function labelValue(value: string): string {
  return LABEL_VALUE.test(value) ? value : shortHash(value);
}

/** Every label made label-safe (keys are evalrig's own and already are). */
export function labelSet(labels: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, labelValue(v)]));
}

/** A Job's name: the session's first 8 hex digits and the run key's hash, DNS-1123, <= 63. */
export function jobName(session: string, runKey: string): string {
  return `evalrig-${shortHash(session, 8)}-${shortHash(runKey)}`;
}

/** The per-session anchor ConfigMap: deleting it deletes every Job owned by it. */
export function anchorName(session: string): string {
  return `evalrig-session-${shortHash(session, 16)}`;
}
