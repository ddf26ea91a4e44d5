import { expect } from 'chai';
import { builderOf } from '../../../src/campaign/engine-setup.js';
import type { ImageBuilder, SandboxImage, SandboxProvider } from '../../../src/sandbox/index.js';

/** A provider of no Docker engine: only what builderOf reads of it. */
function provider(extra: Partial<SandboxProvider>): SandboxProvider {
  return {
    name: 'cluster',
    ensureImage: () => Promise.reject(new Error('not placed through the builder')),
    ...extra,
  } as SandboxProvider;
}

describe('campaign/engine-setup builderOf: the image builder a provider names', () => {
  it('takes the builder the provider names, lending no Docker client of the provider', async () => {
    const placed: SandboxImage[] = [];
    const named: ImageBuilder = {
      name: 'registry 127.0.0.1:5000',
      build: (what) => Promise.resolve(what as never),
      place: (image) => {
        placed.push(image);
        return Promise.resolve();
      },
    };
    const builder = builderOf(provider({ imageBuilder: () => named }));
    expect(builder).to.equal(named);
    expect(
      await builder.build('the test image', () => Promise.reject(new Error('unused'))),
    ).to.equal('the test image');
    await builder.place({ tag: 'evalrig-test:1', id: 'sha256:abc' });
    expect(placed).to.deep.equal([{ tag: 'evalrig-test:1', id: 'sha256:abc' }]);
  });

  it("adapts a provider that lends its build engine: builds there, places by the provider's ensureImage", async () => {
    const placed: SandboxImage[] = [];
    const builder = builderOf(
      provider({
        buildImage: (what, build) => build({ where: `engine for ${what}` } as never),
        ensureImage: (image) => {
          placed.push(image);
          return Promise.resolve();
        },
      }),
    );
    const where = await builder.build('the agent image', (engine) => Promise.resolve(engine.where));
    expect(where).to.equal('engine for the agent image');
    await builder.place({ tag: 't', id: 'sha256:1' });
    expect(placed).to.deep.equal([{ tag: 't', id: 'sha256:1' }]);
    expect(builder.name).to.equal('cluster');
  });

  it('refuses a provider that names no builder, naming it', () => {
    expect(() => builderOf(provider({}))).to.throw(
      'sandbox on cluster: build failed: this provider names no image builder for the campaign',
    );
  });
});
