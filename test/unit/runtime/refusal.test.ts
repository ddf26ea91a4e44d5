import { expect } from 'chai';
import { EvalrigError } from '../../../src/errors/index.js';
import {
  EngineRefusedError,
  asRefusal,
  engineMessageOf,
  refusalHint,
} from '../../../src/runtime/index.js';

/** An error as dockerode makes one of an engine's answer. */
function answered(statusCode: number, message: string): Error {
  return Object.assign(new Error(`(HTTP code ${statusCode}) server error - ${message} `), {
    statusCode,
    json: { message, response: statusCode },
  });
}

describe('runtime/refusal', () => {
  it("turns an engine's 4xx/5xx into one line naming the engine, the operation, its words and the fix", () => {
    const error = asRefusal(
      'unix:///run/podman/podman.sock',
      'a container start',
      answered(
        500,
        'container-init binary not found on the host: stat /usr/libexec/podman/catatonit:\n no such file or directory',
      ),
    );
    expect(error).to.be.instanceOf(EngineRefusedError).and.instanceOf(EvalrigError);
    const refused = error as EngineRefusedError;
    expect(refused.message).to.equal(
      `the engine at unix:///run/podman/podman.sock refused a container start: container-init binary not found on the host: stat /usr/libexec/podman/catatonit: no such file or directory; ${refused.hint}`,
    );
    expect(refused.hint).to.match(/install catatonit/u);
    expect(refused.statusCode).to.equal(500);
    expect(refused.message).not.to.contain('\n');
  });

  it('names the ulimits fix for runc refusing a limit', () => {
    expect(
      refusalHint(
        'runc: runc create failed: unable to start container process: error during container init: error setting rlimits for ready process: error setting rlimit type 7: operation not permitted',
      ),
    ).to.match(/default_ulimits/u);
  });

  it('gives no hint where none is known, and keeps the status for callers that tell 404 from 409', () => {
    const refused = asRefusal('e', 'an exec', answered(409, 'container abc is not running'));
    expect((refused as EngineRefusedError).hint).to.equal(undefined);
    expect((refused as EngineRefusedError).statusCode).to.equal(409);
    expect((refused as Error).message).to.equal(
      'the engine at e refused an exec: container abc is not running',
    );
  });

  it('leaves what is no answer of the engine as it is (a lost connection, a bug)', () => {
    const cut = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(asRefusal('e', 'an exec', cut)).to.equal(cut);
    const bug = new TypeError('x is undefined');
    expect(asRefusal('e', 'an exec', bug)).to.equal(bug);
  });

  it("reads the engine's words from the JSON body, a string body, or the message", () => {
    expect(engineMessageOf({ json: { message: 'a  b\nc' } })).to.equal('a b c');
    expect(engineMessageOf({ json: 'plain words' })).to.equal('plain words');
    expect(engineMessageOf(new Error('(HTTP code 404) no such container - gone'))).to.equal('gone');
  });
});
