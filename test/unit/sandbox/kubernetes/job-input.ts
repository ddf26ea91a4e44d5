/** One run's Job input as a campaign would give it: the unit tests' shared example. */
import {
  anchorName,
  jobName,
  type JobSpecInput,
} from '../../../../src/sandbox/kubernetes/index.js';

export const INPUT: JobSpecInput = {
  name: jobName('3f9c2a1b5e6d7f80', 'add-multiply/with_skill/run-03'),
  namespace: 'evalrig',
  image: '127.0.0.1:5000/evalrig-base@sha256:' + 'a'.repeat(64),
  labels: { 'evalrig.run': 'add-multiply/with_skill/run-03', 'evalrig.session': '3f9c' },
  runKey: 'add-multiply/with_skill/run-03',
  anchor: { name: anchorName('3f9c'), uid: 'uid-1' },
  uid: 1000,
  gid: 1000,
  workingDir: '/workspace',
  env: { HOME: '/home/evalrig' },
  cpus: 1,
  memoryBytes: 512 * 1024 * 1024,
  diskBytes: 1024 * 1024 * 1024,
  activeDeadlineSeconds: 600,
  ttlSecondsAfterFinished: 60,
  command: ['sleep', 'infinity'],
  folders: [{ name: 'workspace', path: '/workspace', sizeBytes: 1 << 30 }],
};
