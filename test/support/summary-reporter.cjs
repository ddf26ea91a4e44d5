// Mocha's spec reporter, closed by one plain line: "N passed, N failed[, N skipped]".
// CI reads that line as the totals of the run.
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;

class SummaryReporter extends Spec {
  // Mocha calls done() after the run's epilogue and before it exits.
  done(failures, exit) {
    const s = this.stats;
    const skipped = s.pending ? `, ${s.pending} skipped` : '';
    process.stdout.write(`${s.passes} passed, ${s.failures} failed${skipped}\n`, () =>
      exit(failures),
    );
  }
}
module.exports = SummaryReporter;
