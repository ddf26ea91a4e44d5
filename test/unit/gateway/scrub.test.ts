/** The gateway's mask of the host's secrets in what it relays, chunk by chunk. */
import { expect } from 'chai';
import { SECRET_MARK } from '../../../src/flight/index.js';
import { SecretScrubber } from '../../../src/gateway/scrub.js';

const KEY = 'sk-ant-api03-echo-7f3a';
const TOKEN = 'sk-ant-oat01-echo-91bd'; // as long as KEY

/** Relays `chunks` through one scrubber; what came out, and the most it held at once. */
function relay(secrets: string[], chunks: string[]): { out: string; held: number; count: number } {
  const s = new SecretScrubber(secrets);
  let out = '';
  let inBytes = 0;
  let held = 0;
  for (const c of chunks) {
    inBytes += Buffer.byteLength(c);
    out += s.push(Buffer.from(c)).toString();
    // What is still held: what came in and is not out yet (both secrets are KEY's length).
    const outBytes = Buffer.byteLength(out.split(SECRET_MARK).join(KEY));
    held = Math.max(held, inBytes - outBytes);
  }
  out += s.end().toString();
  return { out, held, count: s.count };
}

describe('gateway: secrets masked in what is relayed', () => {
  it('masks a key whole in one chunk, and a key split across three', () => {
    expect(relay([KEY], [`{"m":"bad key ${KEY}"}`])).to.include({
      out: `{"m":"bad key ${SECRET_MARK}"}`,
      count: 1,
    });
    const text = `data: {"text":"${KEY}"}\n\n`;
    const split = [text.slice(0, 20), text.slice(20, 25), text.slice(25)];
    expect(relay([KEY], split)).to.include({
      out: `data: {"text":"${SECRET_MARK}"}\n\n`,
      count: 1,
    });
  });

  it('agrees with masking the whole body, however it is cut, and holds back less than a secret', () => {
    const body = `x${KEY}y sk-ant-${TOKEN}${TOKEN}sk-an\n\ndata: ${KEY.slice(0, 9)} end sk`;
    const whole = body.split(KEY).join(SECRET_MARK).split(TOKEN).join(SECRET_MARK);
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) + 1;
    for (let round = 0; round < 300; round++) {
      const chunks: string[] = [];
      for (let at = 0; at < body.length;) {
        const n = rand(12);
        chunks.push(body.slice(at, at + n));
        at += n;
      }
      const r = relay([KEY, TOKEN], chunks);
      expect(r.out).to.equal(whole);
      expect(r.count).to.equal(3);
      expect(r.held).to.be.below(Math.max(KEY.length, TOKEN.length));
    }
  });

  it('holds nothing back when a chunk ends in no start of a secret (an SSE frame)', () => {
    const s = new SecretScrubber([KEY]);
    const frame = Buffer.from('event: ping\ndata: {"type": "ping"}\n\n');
    expect(s.push(frame)).to.equal(frame); // the same buffer: not copied
    expect(s.end().length).to.equal(0);
    expect(s.count).to.equal(0);
  });

  it('masks header values, a secret within another as the longer one, and counts each', () => {
    const s = new SecretScrubber([KEY, `Bearer ${KEY}`]);
    expect(s.text(`Bearer ${KEY}; ${KEY}`)).to.equal(`${SECRET_MARK}; ${SECRET_MARK}`);
    expect(s.count).to.equal(2);
    expect(new SecretScrubber([]).text(KEY)).to.equal(KEY);
  });
});
