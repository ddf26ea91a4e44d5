/**
 * An evalrig-like process for the reaper's tests: it opens the Kubernetes provider as
 * `evalrig run --engine <address>` does (connectProvider: the session's label and its reaper),
 * starts one sandbox labelled `evalrig.run=<run>`, prints `ready`, then waits to be killed
 * (`kill`) or closes the provider, prints `closed` and exits (`close`).
 *   node --import tsx test/support/k8s-child.ts <engine address> <image by digest> <run> kill|close
 */
import { connectProvider, engineAddress, LABELS } from '../../src/sandbox/index.js';

const [where, image, run, mode] = process.argv.slice(2) as [string, string, string, string];
const { sandboxes } = await connectProvider({
  engines: [{ address: engineAddress(where), mounts: false }],
  jobs: 1,
});
await sandboxes.open({});
await sandboxes.start({
  image,
  labels: { [LABELS.run]: run },
  limits: { cpus: 0.25, memoryBytes: 128 << 20 },
  diskBytes: 64 << 20,
});
console.log('ready');
if (mode === 'close') {
  await sandboxes.close();
  console.log('closed');
} else {
  setInterval(() => undefined, 60_000);
}
