/**
 * Files with holes, as GNU tar sends them (`--sparse`, pax format 1.0): the member's data is a
 * map (a count, then an offset and a length per data segment, in decimal lines, padded to 512
 * bytes), then the segments' bytes one after the other. The real name and size are in the pax
 * header (`GNU.sparse.name`, `GNU.sparse.realsize`).
 *
 * Writing a member at its offsets and truncating to its real size keeps the holes on the host:
 * a file that takes no disk in the sandbox takes none on the host either, so an agent cannot
 * grow the host's copy by making a large empty file. The map and the bytes are the agent's:
 * every number is checked (segments in order, inside the real size, adding up to the member)
 * before its bytes are written.
 */
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Header } from 'tar-stream';

/** What a sparse member is, from its pax header. */
export interface SparseMember {
  /** The file's name (the archive's own name for it is a made-up GNUSparseFile.N/...). */
  readonly name: string;
  /** The file's size, holes included. */
  readonly realSize: number;
}

/** A sparse member that does not read as GNU tar writes one: the sync is refused. */
export class SparseFormatError extends Error {}

const BLOCK = 512;
/** Digits of a number of the map: past 2^53 no size is real. */
const MAX_DIGITS = 16;
/** Segments of one file's map: far more than a real file's data runs (its map is then ~20 MB). */
export const MAX_SEGMENTS = 1_000_000;

/**
 * The sparse member `header` describes, or undefined for a plain file. Any other sparse format
 * than 1.0 (which evalrig asks tar for) is refused.
 */
export function sparseMember(header: Header): SparseMember | undefined {
  // tar-stream keeps a member's pax records on its header (its types do not say so).
  const pax: Readonly<Record<string, string | undefined>> =
    (header as { pax?: Record<string, string> }).pax ?? {};
  if (!Object.keys(pax).some((k) => k.startsWith('GNU.sparse.'))) return undefined;
  const { 'GNU.sparse.major': major, 'GNU.sparse.minor': minor } = pax;
  if (major !== '1' || minor !== '0') {
    throw new SparseFormatError(`a sparse file of format ${major ?? '?'}.${minor ?? '?'}, not 1.0`);
  }
  const name = pax['GNU.sparse.name'];
  const size = pax['GNU.sparse.realsize'] ?? '';
  if (!name || !/^\d{1,16}$/u.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new SparseFormatError('a sparse file without its name or real size');
  }
  return { name, realSize: Number(size) };
}

/** One data segment of the map. */
interface Segment {
  readonly offset: number;
  readonly length: number;
}

/** Reads the map's decimal lines as they stream in, without holding more than one number. */
class MapReader {
  private readonly numbers: number[] = [];
  private digits = '';
  /** Bytes of the member consumed by the map so far. */
  consumed = 0;
  private wanted = 1;

  /** Takes bytes from `chunk`; returns how many were the map's (all but what follows it). */
  push(chunk: Buffer): number {
    let i = 0;
    while (i < chunk.length && this.numbers.length < this.wanted) {
      const byte = chunk[i++]!;
      if (byte === 0x0a) {
        if (this.digits === '') throw new SparseFormatError('an empty number in a sparse map');
        this.numbers.push(Number(this.digits));
        this.digits = '';
        if (this.numbers.length === 1) {
          if (this.numbers[0]! > MAX_SEGMENTS) {
            throw new SparseFormatError(`a sparse map of more than ${MAX_SEGMENTS} segments`);
          }
          this.wanted = 1 + 2 * this.numbers[0]!;
        }
      } else if (byte >= 0x30 && byte <= 0x39 && this.digits.length < MAX_DIGITS) {
        this.digits += String.fromCharCode(byte);
      } else {
        throw new SparseFormatError('a sparse map that is not decimal lines');
      }
    }
    this.consumed += i;
    return i;
  }

  get done(): boolean {
    return this.numbers.length === this.wanted;
  }

  segments(): Segment[] {
    const out: Segment[] = [];
    for (let k = 1; k < this.numbers.length; k += 2) {
      out.push({ offset: this.numbers[k]!, length: this.numbers[k + 1]! });
    }
    return out;
  }
}

/** Checks the map against the member's and the file's sizes; the bytes of data it announces. */
function checkMap(segments: readonly Segment[], member: SparseMember, dataBytes: number): void {
  let end = 0;
  let total = 0;
  for (const s of segments) {
    if (s.offset < end || s.offset + s.length > member.realSize) {
      throw new SparseFormatError('a sparse map whose segments overlap or pass the real size');
    }
    end = s.offset + s.length;
    total += s.length;
  }
  if (total !== dataBytes) {
    throw new SparseFormatError(
      `a sparse map announcing ${total} bytes of data where the member holds ${dataBytes}`,
    );
  }
}

/**
 * Writes a sparse member's content (`memberSize` bytes: map then data) into `handle` at its
 * offsets, holes left as holes, and gives the file its real size. `allow(bytes)` is called
 * with the data's size once the map is read, before anything is written: it throws to refuse.
 * Returns the bytes of data written.
 */
export async function writeSparse(
  handle: FileHandle,
  content: Readable,
  memberSize: number,
  member: SparseMember,
  allow: (dataBytes: number) => void,
): Promise<number> {
  const map = new MapReader();
  let segments: Segment[] | undefined;
  let skip = 0;
  let index = 0;
  let within = 0;
  let written = 0;
  for await (const raw of content) {
    let chunk = raw as Buffer;
    if (!segments) {
      chunk = chunk.subarray(map.push(chunk));
      if (!map.done) continue;
      const mapBytes = Math.ceil(map.consumed / BLOCK) * BLOCK;
      segments = map.segments();
      checkMap(segments, member, memberSize - mapBytes);
      allow(memberSize - mapBytes);
      skip = mapBytes - map.consumed;
    }
    const padding = Math.min(skip, chunk.length);
    chunk = chunk.subarray(padding);
    skip -= padding;
    while (chunk.length > 0) {
      const s = segments[index];
      if (!s) throw new SparseFormatError('a sparse member with more data than its map');
      if (s.length === 0) {
        index++;
        continue;
      }
      const take = Math.min(s.length - within, chunk.length);
      await handle.write(chunk, 0, take, s.offset + within);
      written += take;
      within += take;
      chunk = chunk.subarray(take);
      if (within === s.length) {
        index++;
        within = 0;
      }
    }
  }
  if (!segments) throw new SparseFormatError('a sparse member cut before the end of its map');
  if (written !== memberSize - Math.ceil(map.consumed / BLOCK) * BLOCK) {
    throw new SparseFormatError('a sparse member cut before the end of its data');
  }
  await handle.truncate(member.realSize);
  return written;
}
