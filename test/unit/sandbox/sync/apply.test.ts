import { expect } from 'chai';
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pack as tarPack, type Header } from 'tar-stream';

type Headers = Partial<Header> & { name: string };
import { SandboxFileError } from '../../../../src/sandbox/index.js';
import { addedBytes, applyDelta } from '../../../../src/sandbox/sync/apply.js';
import {
  diffListings,
  parseListing,
  type ListedEntry,
} from '../../../../src/sandbox/sync/listing.js';
import {
  FRAME,
  FrameDecoder,
  FrameError,
  encodeFrame,
} from '../../../../src/sandbox/sync/frames.js';

/** A tar stream of crafted entries: what a subverted sandbox could send. */
function archive(entries: Array<{ header: Headers; body?: string }>): Readable {
  const pack = tarPack();
  for (const e of entries) pack.entry(e.header, e.body ?? '');
  pack.finalize();
  return pack as unknown as Readable;
}

const file = (p: string, size: number, mode = 0o644, allocated = size): ListedEntry => ({
  type: 'f',
  path: p,
  size,
  mode,
  link: '',
  allocated,
  stamp: `f|${size}|${p}`,
});

const LIMITS = { maxFileBytes: 1024, maxTotalBytes: 4096 };

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

/**
 * The host side of a remote sync: whatever the sandbox sends (listing, archive)
 * is the agent's, and nothing outside the host folder is ever written.
 */
describe('sandbox/sync: applying what a sandbox sends', () => {
  let dir: string;
  let root: string;
  let outside: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-apply-'));
    root = path.join(dir, 'root');
    outside = path.join(dir, 'outside');
    await mkdir(root);
    await mkdir(outside);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const delta = (files: ListedEntry[]) => ({ folders: [], links: [], files, removed: [] });

  it('writes the files asked for, parents made, modes kept without setuid bits', async () => {
    const stats = await applyDelta(
      root,
      delta([file('a/b.txt', 2, 0o4755)]),
      async () => archive([{ header: { name: './a/b.txt', size: 2 }, body: 'hi' }]),
      LIMITS,
    );
    expect(stats).to.deep.equal({ changed: 1, removed: 0, bytes: 2 });
    expect(await readFile(path.join(root, 'a/b.txt'), 'utf8')).to.equal('hi');
    expect((await lstat(path.join(root, 'a/b.txt'))).mode & 0o7777).to.equal(0o755);
  });

  for (const name of ['../escape', '/abs/escape', 'a/../../escape', `${'../'.repeat(3)}escape`]) {
    it(`refuses an archive entry named ${JSON.stringify(name)} and writes nothing outside`, async () => {
      const error = await failure(
        applyDelta(
          root,
          delta([file('ok', 1)]),
          async () => archive([{ header: { name, size: 1 }, body: 'x' }]),
          LIMITS,
        ),
      );
      expect(error).to.be.instanceOf(SandboxFileError);
      expect(await readdir(outside)).to.deep.equal([]);
      expect(await readdir(dir)).to.deep.equal(['outside', 'root']);
    });
  }

  it('refuses a link or a hard link sent where a file was asked, and an entry sent twice', async () => {
    for (const header of [
      { name: 'ok', type: 'symlink', linkname: '/etc/passwd' },
      { name: 'ok', type: 'link', linkname: '../outside/x' },
    ] as Headers[]) {
      const error = await failure(
        applyDelta(root, delta([file('ok', 0)]), async () => archive([{ header }]), LIMITS),
      );
      expect(error.message).to.match(/not a file/u);
    }
    const twice = await failure(
      applyDelta(
        root,
        delta([file('ok', 1)]),
        async () =>
          archive([
            { header: { name: 'ok', size: 1 }, body: 'a' },
            { header: { name: 'ok', size: 1 }, body: 'b' },
          ]),
        LIMITS,
      ),
    );
    expect(twice.message).to.match(/not asked for/u);
  });

  it('never writes through a link already in the host folder (a folder or a file replaced by the agent)', async () => {
    await symlink(outside, path.join(root, 'a'));
    await symlink(path.join(outside, 'victim'), path.join(root, 'b'));
    await applyDelta(
      root,
      delta([file('a/x', 1), file('b', 1)]),
      async () =>
        archive([
          { header: { name: 'a/x', size: 1 }, body: '1' },
          { header: { name: 'b', size: 1 }, body: '2' },
        ]),
      LIMITS,
    );
    expect(await readdir(outside)).to.deep.equal([]);
    expect((await lstat(path.join(root, 'a'))).isDirectory()).to.equal(true);
    expect((await lstat(path.join(root, 'b'))).isFile()).to.equal(true);
  });

  it('removes what disappeared without following a link in its path', async () => {
    await writeFile(path.join(outside, 'keep'), 'k');
    await symlink(outside, path.join(root, 'l'));
    await applyDelta(
      root,
      { folders: [], links: [], files: [], removed: ['l/keep', 'l'] },
      async () => archive([]),
      LIMITS,
    );
    expect(await readdir(outside)).to.deep.equal(['keep']);
    expect(await readdir(root)).to.deep.equal([]);
  });

  it('refuses a file over its cap before fetching, and an archive whose header lies about the size', async () => {
    let fetched = false;
    const big = await failure(
      applyDelta(
        root,
        delta([file('big', 2048)]),
        async () => {
          fetched = true;
          return archive([]);
        },
        LIMITS,
      ),
    );
    expect(big).to.be.instanceOf(SandboxFileError);
    expect(fetched).to.equal(false);
    const lying = await failure(
      applyDelta(
        root,
        delta([file('f', 1)]),
        async () => archive([{ header: { name: 'f', size: 2000 }, body: 'x'.repeat(2000) }]),
        LIMITS,
      ),
    );
    expect(lying.message).to.match(/cap/u);
  });

  it('counts what the run added to a tree on the host: changed and new files, holes taking nothing', () => {
    const baseline = new Map([
      ['kept', file('kept', 4000)],
      ['changed', file('changed', 100)],
    ]);
    const after = new Map([
      ['kept', file('kept', 4000)],
      ['changed', { ...file('changed', 300), stamp: 'f|300|changed|later' }],
      ['new', file('new', 50)],
      // 1 GB long, one 4 KiB block of data.
      ['holes', file('holes', 1e9, 0o644, 4096)],
    ]);
    expect(addedBytes(baseline, after)).to.equal(300 + 50 + 4096);
    expect(addedBytes(baseline, baseline)).to.equal(0);
  });

  it('makes links from the listing as links, and a missing file fails the sync', async () => {
    const link: ListedEntry = {
      type: 'l',
      path: 'to-etc',
      size: 0,
      mode: 0o777,
      link: '/etc',
      allocated: 0,
      stamp: 'l',
    };
    await applyDelta(
      root,
      { folders: [], links: [link], files: [], removed: [] },
      async () => archive([]),
      LIMITS,
    );
    expect(await readlink(path.join(root, 'to-etc'))).to.equal('/etc');
    const missing = await failure(
      applyDelta(root, delta([file('gone', 1)]), async () => archive([]), LIMITS),
    );
    expect(missing.message).to.match(/did not come back/u);
  });
  it('never writes through a link it made itself over a folder it had made (a delta no consistent listing gives)', async () => {
    // A forged listing, or a host folder that folds case or Unicode forms, can name a
    // folder and a link at one place: the link replaces the folder, nothing goes through it.
    const folder = (p: string): ListedEntry => ({
      type: 'd',
      path: p,
      size: 0,
      mode: 0o755,
      link: '',
      allocated: 4096,
      stamp: `d|${p}`,
    });
    const link: ListedEntry = {
      type: 'l',
      path: 'a',
      size: 0,
      mode: 0o777,
      link: outside,
      allocated: 0,
      stamp: 'l',
    };
    const through: ListedEntry = { ...link, path: 'a/b/l', link: '/etc' };
    await mkdir(path.join(outside, 'b'));
    await applyDelta(
      root,
      {
        folders: [folder('a'), folder('a/b')],
        links: [link, through],
        files: [file('a/b/x', 1)],
        removed: [],
      },
      async () => archive([{ header: { name: 'a/b/x', size: 1 }, body: '1' }]),
      LIMITS,
    );
    expect(await readdir(path.join(outside, 'b'))).to.deep.equal([]);
    expect((await lstat(path.join(root, 'a'))).isDirectory()).to.equal(true);
    expect(await readFile(path.join(root, 'a', 'b', 'x'), 'utf8')).to.equal('1');
  });
});

/** A GNU tar sparse member (pax 1.0) of `data` segments in a file of `realSize` bytes. */
function sparseEntry(
  name: string,
  realSize: number,
  segments: Array<[number, string]>,
  options: { map?: string; version?: string } = {},
): { header: Headers; body: string } {
  const mapText =
    options.map ??
    [segments.length, ...segments.flatMap(([offset, d]) => [offset, d.length]), ''].join('\n');
  const padded = mapText.padEnd(Math.ceil(mapText.length / 512) * 512, '\0');
  const body = padded + segments.map(([, d]) => d).join('');
  const [major, minor] = (options.version ?? '1.0').split('.');
  return {
    header: {
      name: `./GNUSparseFile.7/${name}`,
      size: body.length,
      pax: {
        'GNU.sparse.major': major!,
        'GNU.sparse.minor': minor!,
        'GNU.sparse.name': `./${name}`,
        'GNU.sparse.realsize': String(realSize),
      },
    } as Headers,
    body,
  };
}

describe('sandbox/sync: files with holes', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'evalrig-sparse-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));
  const limits = { maxFileBytes: 64 * 1024 ** 2, maxTotalBytes: 4096 };
  const delta = (files: ListedEntry[]) => ({ folders: [], links: [], files, removed: [] });

  it('writes a sparse member at its offsets, its holes kept as holes, at its real size', async () => {
    const size = 32 * 1024 ** 2;
    const stats = await applyDelta(
      root,
      delta([file('big', size, 0o644, 8192)]),
      async () =>
        archive([
          sparseEntry('big', size, [
            [1_000_000, 'hello'],
            [20_000_000, 'world'],
            [size, ''],
          ]),
        ]),
      { ...limits, maxTotalBytes: 65536 },
    );
    const target = path.join(root, 'big');
    const info = await lstat(target);
    expect(info.size).to.equal(size);
    // Two pages of data at most: the 32 MB of zeros are holes.
    expect(info.blocks * 512).to.be.at.most(64 * 1024);
    const bytes = await readFile(target);
    expect(bytes.subarray(1_000_000, 1_000_005).toString()).to.equal('hello');
    expect(bytes.subarray(20_000_000, 20_000_005).toString()).to.equal('world');
    expect(bytes.reduce((sum, b) => sum + b, 0)).to.equal(
      [...'helloworld'].reduce((sum, c) => sum + c.charCodeAt(0), 0),
    );
    // What crossed: the map's block and the ten bytes of data.
    expect(stats.bytes).to.equal(512 + 10);
  });

  it('counts a sparse member’s data against the sync’s cap, not its size, before writing it', async () => {
    const ok = await applyDelta(
      root,
      delta([file('a', 10 ** 7, 0o644, 4096)]),
      async () => archive([sparseEntry('a', 10 ** 7, [[5, 'x'.repeat(4000)]])]),
      limits,
    );
    expect(ok.changed).to.equal(1);
    const over = await failure(
      applyDelta(
        root,
        delta([file('b', 10 ** 7, 0o644, 4096)]),
        async () => archive([sparseEntry('b', 10 ** 7, [[5, 'x'.repeat(5000)]])]),
        limits,
      ),
    );
    expect(over).to.be.instanceOf(SandboxFileError);
    expect(over.message).to.match(/cap of 4096/u);
    expect(await readdir(root)).to.deep.equal(['a']);
  });

  it('refuses a sparse member past the file cap, a map that lies, and another sparse format', async () => {
    const cases: Array<[ReturnType<typeof sparseEntry>, RegExp]> = [
      [sparseEntry('f', 65 * 1024 ** 2, [[0, 'x']]), /cap/u],
      [sparseEntry('f', 100, [[99, 'xx']]), /pass the real size/u],
      [
        sparseEntry('f', 100, [
          [50, 'x'],
          [10, 'y'],
        ]),
        /overlap/u,
      ],
      [sparseEntry('f', 100, [[0, 'xy']], { map: '1\n0\n5\n' }), /announcing 5 bytes/u],
      [sparseEntry('f', 100, [[0, 'x']], { map: '1\n0\nabc\n' }), /not decimal/u],
      [sparseEntry('f', 100, [[0, 'x']], { map: '99999999\n' }), /more than 1000000 segments/u],
      [sparseEntry('f', 100, [[0, 'x']], { version: '0.1' }), /format 0\.1/u],
    ];
    for (const [entry, message] of cases) {
      const error = await failure(
        applyDelta(root, delta([file('f', 100, 0o644, 512)]), async () => archive([entry]), limits),
      );
      expect(error, String(message)).to.be.instanceOf(SandboxFileError);
      expect(error.message).to.match(message);
      expect(await readdir(root)).to.deep.equal([]);
    }
  });
});

describe('sandbox/sync: listings', () => {
  const record = (...fields: string[]) => Buffer.from(fields.map((f) => `${f}\0`).join(''));
  const rootRecord = record('d', '', '4096', '1.0', '1.0', '1', '755', '', '8');

  it('parses names with newlines and compares by stamp', () => {
    const a = parseListing(
      '/w',
      Buffer.concat([rootRecord, record('f', 'x\ny', '3', '1.5', '1.5', '9', '644', '', '8')]),
      { maxEntries: 10 },
    );
    expect([...a.keys()]).to.deep.equal(['x\ny']);
    expect(a.get('x\ny')!.allocated).to.equal(4096);
    const b = parseListing(
      '/w',
      Buffer.concat([rootRecord, record('f', 'x\ny', '3', '1.5', '2.5', '9', '644', '', '8')]),
      { maxEntries: 10 },
    );
    expect(diffListings(a, b).files.map((f) => f.path)).to.deep.equal(['x\ny']);
    expect(diffListings(a, a).files).to.deep.equal([]);
    expect(diffListings(a, new Map()).removed).to.deep.equal(['x\ny']);
  });

  it('refuses a root that is not a folder, `..` names, non-UTF-8 names and too many entries', () => {
    const bad = [
      record('l', '', '4', '1', '1', '1', '777', '/etc', '0'),
      Buffer.concat([rootRecord, record('f', '../x', '1', '1', '1', '1', '644', '', '8')]),
      // Blocks that are not a number.
      Buffer.concat([rootRecord, record('f', 'x', '1', '1', '1', '1', '644', '', '-8')]),
      Buffer.concat([
        rootRecord,
        Buffer.from('f\0'),
        Buffer.from([0xff, 0xfe, 0]),
        record('1', '1', '1', '1', '644', '', '8'),
      ]),
      Buffer.concat([
        rootRecord,
        record('f', 'a', '1', '1', '1', '1', '644', '', '8'),
        record('f', 'b', '1', '1', '1', '2', '644', '', '8'),
      ]),
      Buffer.concat([rootRecord, Buffer.from('f\0cut')]),
    ];
    for (const bytes of bad) {
      expect(() => parseListing('/w', bytes, { maxEntries: 1 })).to.throw(SandboxFileError);
    }
  });
});

describe('sandbox/sync: tunnel frames', () => {
  it('splits a stream into frames however it is cut', () => {
    const bytes = Buffer.concat([
      encodeFrame(FRAME.open, 1, Buffer.from('/run/x.sock')),
      encodeFrame(FRAME.data, 1, Buffer.from('hello')),
    ]);
    const decoder = new FrameDecoder();
    const frames = [...bytes].flatMap((b) => decoder.push(Buffer.from([b])));
    expect(frames.map((f) => [f.type, f.id, f.payload.toString()])).to.deep.equal([
      [FRAME.open, 1, '/run/x.sock'],
      [FRAME.data, 1, 'hello'],
    ]);
  });

  it('refuses an unknown type and a payload over the cap before buffering it', () => {
    const header = Buffer.alloc(9);
    header.writeUInt8(9, 0);
    expect(() => new FrameDecoder().push(header)).to.throw(FrameError, /unknown frame type/u);
    header.writeUInt8(FRAME.data, 0);
    header.writeUInt32BE(2 ** 31, 5);
    expect(() => new FrameDecoder(1024).push(header)).to.throw(FrameError, /cap/u);
  });
});
