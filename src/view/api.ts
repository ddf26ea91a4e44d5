import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { reachedThroughNoLink } from '../campaign-folder/index.js';
import { readRunDiffs, readTrajectory } from '../trajectory/index.js';
import {
  readBenchmark,
  readConditions,
  readReviewText,
  reviewFile,
  runFolder,
  writeReviewText,
} from '../trajectory/source.js';
import { isName } from './guard.js';
import {
  assertReview,
  MAX_REVIEW_BYTES,
  parseReviewFile,
  parseReviewInput,
  ReviewError,
  type ReviewFile,
} from '../report/review-file.js';
import { runRow, runRows } from './rows.js';
import { APP_CSP, baseHeaders, HttpError, send, VIEW_HOST, type ServerContext } from './http.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Refuses (404, as for what is not there) a folder reached through a symbolic link: the
 * viewer reads and writes only inside the campaign folder, whatever was planted in it.
 */
async function refuseLinks(outDir: string, dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    if (!(await reachedThroughNoLink(outDir, dir))) {
      throw new HttpError(404, 'refused: a symbolic link on the way out of the campaign folder');
    }
  }
}

/** The run a path names: /_api/<verb>/<eval>/<condition>/<run>. */
function runOf(parts: readonly string[]): { eval: string; condition: string; run: number } {
  const [evalId, condition, n] = parts.map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return '';
    }
  });
  const run = Number(n);
  if (
    parts.length !== 3 ||
    !isName(evalId!) ||
    !isName(condition!) ||
    !Number.isInteger(run) ||
    run < 1
  )
    throw new HttpError(404, 'no such run');
  return { eval: evalId!, condition: condition!, run };
}

/** The viewer's API: JSON answers, one event stream, and the one write (a review note). */
export async function apiRoute(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const [verb, ...rest] = url.pathname.slice('/_api/'.length).split('/');
  if (verb === 'review') return review(ctx, req, res, runOf(rest));
  if (req.method !== 'GET') throw new HttpError(405, 'evalrig view only reads here');
  switch (verb) {
    case 'campaign':
      return send(res, 200, JSON_TYPE, JSON.stringify(await campaign(ctx.outDir)));
    case 'runs':
      return streamRows(ctx.outDir, res);
    case 'run':
      return run(ctx, res, runOf(rest));
    case 'diffs':
      return diffs(ctx, res, runOf(rest));
    case 'events':
      return ctx.live.add(res);
    default:
      throw new HttpError(404, 'no such API');
  }
}

async function campaign(outDir: string): Promise<unknown> {
  const [conditions, benchmark] = await Promise.all([
    readConditions(outDir).catch(() => null),
    readBenchmark(outDir).catch(() => null),
  ]);
  return { conditions, benchmark };
}

/** Every run's row as one JSON line each, written as read: nothing held but a few rows. */
async function streamRows(outDir: string, res: ServerResponse): Promise<void> {
  res.writeHead(200, {
    ...baseHeaders(APP_CSP),
    'Content-Type': 'application/x-ndjson; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  for await (const row of runRows(outDir)) {
    if (res.destroyed) return;
    if (!res.write(`${JSON.stringify(row)}\n`)) await new Promise((r) => res.once('drain', r));
  }
  res.end();
}

async function run(
  ctx: ServerContext,
  res: ServerResponse,
  id: { eval: string; condition: string; run: number },
): Promise<void> {
  const dir = runFolder(ctx.outDir, id.eval, id.condition, id.run);
  await refuseLinks(ctx.outDir, [dir, path.join(dir, 'turns'), path.join(dir, 'stops')]);
  const row = await runRow(ctx.outDir, id.eval, id.condition, id.run);
  if (row === null) throw new HttpError(404, 'that run has not finished (no run.json)');
  const trajectory = await readTrajectory(dir);
  send(res, 200, JSON_TYPE, JSON.stringify({ row, trajectory }));
}

/** The run's diff and its eval's reference diff, each capped, as text. */
async function diffs(
  ctx: ServerContext,
  res: ServerResponse,
  id: { eval: string; condition: string; run: number },
): Promise<void> {
  const dir = runFolder(ctx.outDir, id.eval, id.condition, id.run);
  await refuseLinks(ctx.outDir, [dir]);
  send(res, 200, JSON_TYPE, JSON.stringify(await readRunDiffs(ctx.outDir, id)));
}

/** GET: the run's review, or null. POST: a new one, validated, size-capped, written atomically. */
async function review(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: { eval: string; condition: string; run: number },
): Promise<void> {
  const reviewDir = path.dirname(reviewFile(ctx.outDir, id.eval, id.condition, id.run));
  await refuseLinks(ctx.outDir, [runFolder(ctx.outDir, id.eval, id.condition, id.run), reviewDir]);
  const stored = async (): Promise<ReviewFile | null> =>
    parseReviewFile(await readReviewText(ctx.outDir, id.eval, id.condition, id.run), 'review');
  if (req.method === 'GET') return send(res, 200, JSON_TYPE, JSON.stringify(await stored()));
  if (req.method !== 'POST') throw new HttpError(405, 'a review is read (GET) or written (POST)');
  // Another site's page may POST here from the user's browser: only this server's own pages may.
  if (req.headers.origin !== `http://${VIEW_HOST}:${ctx.port}`)
    throw new HttpError(403, "refused: a review is written from the viewer's own page");
  if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
    throw new HttpError(415, 'a review is sent as application/json');
  const row = await runRow(ctx.outDir, id.eval, id.condition, id.run);
  if (row === null) throw new HttpError(404, 'no such finished run');
  const input = parseBody(await readBody(req));
  const record = await readCampaignName(ctx.outDir);
  const file: ReviewFile = {
    schema: 'evalrig/review@1',
    campaign: record,
    eval: id.eval,
    condition: id.condition,
    run: id.run,
    verdict: input.verdict,
    note: input.note,
    updated_at: new Date().toISOString(),
  };
  assertReview(file, 'review');
  await writeReviewText(
    ctx.outDir,
    id.eval,
    id.condition,
    id.run,
    `${JSON.stringify(file, null, 2)}\n`,
  );
  send(res, 200, JSON_TYPE, JSON.stringify(file));
}

function parseBody(body: string): ReturnType<typeof parseReviewInput> {
  try {
    return parseReviewInput(body);
  } catch (error) {
    if (error instanceof ReviewError) throw new HttpError(400, error.message);
    throw error;
  }
}

async function readCampaignName(outDir: string): Promise<string> {
  return (await readConditions(outDir).catch(() => null))?.campaign ?? '';
}

/** A request's body up to MAX_REVIEW_BYTES; past it the request is refused unread. */
async function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_REVIEW_BYTES)
    throw new HttpError(413, `a review is at most ${MAX_REVIEW_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REVIEW_BYTES)
      throw new HttpError(413, `a review is at most ${MAX_REVIEW_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
