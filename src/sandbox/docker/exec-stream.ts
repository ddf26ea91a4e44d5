import { PassThrough, type Duplex, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import { bounded, type DockerClient } from '../../runtime/index.js';

/** An exec whose standard output is streamed, not collected: an archive coming out of a sandbox. */
export interface StreamedExec {
  /** Standard output; fails (destroyed with the error) when the command exits non-zero. */
  readonly stdout: Readable;
}

const STDERR_KEPT = 4096;

/**
 * Runs `cmd` in `container` as `user`, writes `stdin` and half-closes it, and
 * streams standard output. The stream ends only after the exit code was read:
 * a command that failed half-way (a tar that could not read a file) makes the
 * stream fail rather than end as if complete.
 */
export async function execStreamed(
  client: DockerClient,
  container: Docker.Container,
  cmd: readonly string[],
  options: { readonly user: string; readonly stdin: Buffer; readonly env?: readonly string[] },
): Promise<StreamedExec> {
  const exec = await bounded(client, 'an exec', () =>
    container.exec({
      Cmd: [...cmd],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      User: options.user,
      Env: [...(options.env ?? [])],
    }),
  );
  const stream = (await bounded(client, 'an exec start', () =>
    exec.start({ hijack: true, stdin: true }),
  )) as unknown as Duplex;
  const raw = new PassThrough();
  const stderr = new PassThrough();
  let said = '';
  stderr.on('data', (c: Buffer) => {
    if (said.length < STDERR_KEPT) said += c.toString('utf8');
  });
  client.docker.modem.demuxStream(stream, raw, stderr);
  const out = new PassThrough();
  // Chunks already demuxed still arrive after the pause: wait for one drain, not one per chunk.
  let blocked = false;
  raw.on('data', (c: Buffer) => {
    if (!out.write(c) && !blocked) {
      blocked = true;
      stream.pause();
      out.once('drain', () => {
        blocked = false;
        stream.resume();
      });
    }
  });
  let settled = false;
  const finish = (): void => {
    if (settled) return;
    settled = true;
    bounded(client, 'an exec inspect', () => exec.inspect()).then(
      (info) => {
        if (info.ExitCode === 0) out.end();
        else {
          out.destroy(
            new Error(
              `${cmd[0]} exited ${info.ExitCode ?? 'unknown'}: ${said.trim().slice(0, 500)}`,
            ),
          );
        }
      },
      (error: unknown) => out.destroy(error as Error),
    );
  };
  stream.on('end', finish);
  stream.on('close', finish);
  stream.on('error', (error: Error) => {
    settled = true;
    out.destroy(error);
  });
  // A reader that gives up (a refused entry) ends the exec too.
  out.on('close', () => stream.destroy());
  stream.write(options.stdin);
  (stream as unknown as { end(): void }).end();
  return { stdout: out };
}
