/**
 * The socket tunnel's wire format, spoken over one exec's stdin and stdout
 * between the host and the tunnel program inside a sandbox
 * (stand-in/tunnel). Each frame is a 9-byte header, then its payload:
 *
 * ```
 * type (1 byte) | connection id (4 bytes, big endian) | payload length (4 bytes, big endian)
 * ```
 *
 * OPEN (sandbox → host) names the socket a connection was accepted on;
 * DATA carries bytes; END half-closes (no more data this way); CLOSE ends the
 * connection; READY (sandbox → host, id 0) says every socket listens.
 * On the host this is untrusted input: the decoder refuses an unknown type and
 * a payload over its cap before buffering it.
 */

export const FRAME = {
  open: 1,
  data: 2,
  end: 3,
  close: 4,
  ready: 5,
} as const;

export type FrameType = (typeof FRAME)[keyof typeof FRAME];

export interface Frame {
  readonly type: FrameType;
  readonly id: number;
  readonly payload: Buffer;
}

export const HEADER_BYTES = 9;
/** Payloads are cut to this on the way out and refused over it on the way in. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

export function encodeFrame(
  type: FrameType,
  id: number,
  payload: Buffer = Buffer.alloc(0),
): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt8(type, 0);
  header.writeUInt32BE(id >>> 0, 1);
  header.writeUInt32BE(payload.length, 5);
  return Buffer.concat([header, payload]);
}

/** Frames of `payload` as DATA, none over {@link MAX_PAYLOAD_BYTES}. */
export function dataFrames(id: number, payload: Buffer, max = MAX_PAYLOAD_BYTES): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < payload.length; at += max) {
    out.push(encodeFrame(FRAME.data, id, payload.subarray(at, at + max)));
  }
  return out;
}

/** A frame the decoder refuses: the stream is then dropped whole. */
export class FrameError extends Error {}

const TYPES = new Set<number>(Object.values(FRAME));

/** Splits a byte stream into frames; never buffers more than one capped frame. */
export class FrameDecoder {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly maxPayload = MAX_PAYLOAD_BYTES) {}

  /** The frames `chunk` completes. Throws FrameError on a bad header. */
  push(chunk: Buffer): Frame[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const frames: Frame[] = [];
    while (this.buffered.length >= HEADER_BYTES) {
      const type = this.buffered.readUInt8(0);
      const id = this.buffered.readUInt32BE(1);
      const length = this.buffered.readUInt32BE(5);
      if (!TYPES.has(type)) throw new FrameError(`unknown frame type ${type}`);
      if (length > this.maxPayload) {
        throw new FrameError(`a frame of ${length} bytes (the cap is ${this.maxPayload})`);
      }
      if (this.buffered.length < HEADER_BYTES + length) break;
      const payload = Buffer.from(this.buffered.subarray(HEADER_BYTES, HEADER_BYTES + length));
      this.buffered = this.buffered.subarray(HEADER_BYTES + length);
      frames.push({ type: type as FrameType, id, payload });
    }
    return frames;
  }
}
