import { expect } from 'chai';
import { filesOf, toolAction } from '../../../src/behaviour/index.js';

describe('behaviour/files', () => {
  it('tells reading tools from editing ones by name', () => {
    expect(toolAction('Read')).to.equal('read');
    expect(toolAction('read_file')).to.equal('read');
    expect(toolAction('Edit')).to.equal('edit');
    expect(toolAction('write_file')).to.equal('edit');
    expect(toolAction('Bash')).to.equal(null);
  });

  it('names the files in path fields and in patch bodies', () => {
    expect(filesOf('Read', JSON.stringify({ file_path: '/w/a.js' }))).to.deep.equal({
      read: ['/w/a.js'],
      edited: [],
    });
    expect(filesOf('Write', JSON.stringify({ file_path: 'b.js', content: 'x' }))).to.deep.equal({
      read: [],
      edited: ['b.js'],
    });
    const patch =
      '*** Begin Patch\n*** Update File: math.js\n@@\n+x\n*** Add File: t.js\n*** End Patch';
    expect(filesOf('apply_patch', JSON.stringify({ input: patch }))).to.deep.equal({
      read: [],
      edited: ['math.js', 't.js'],
    });
    expect(filesOf('apply_patch', patch)).to.deep.equal({ read: [], edited: ['math.js', 't.js'] });
    expect(filesOf('Bash', JSON.stringify({ command: 'cat a.js' }))).to.deep.equal({
      read: [],
      edited: [],
    });
  });
});
