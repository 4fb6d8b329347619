import { test } from 'node:test';
import assert from 'node:assert/strict';
import { element, escapeAttribute, escapeText, leaf, writeXml } from './canonical.ts';

test('escapes text and attributes as Canonical XML 1.0', () => {
  assert.equal(escapeText('a & b < c > d\r"\''), 'a &amp; b &lt; c &gt; d&#xD;"\'');
  assert.equal(escapeAttribute('a & "b" <c>\t\n\r'), 'a &amp; &quot;b&quot; &lt;c>&#x9;&#xA;&#xD;');
});

test('never writes empty tags: absent leaves and empty groups disappear', () => {
  const xml = writeXml(
    element('A', leaf('B', 'x'), leaf('C', undefined), leaf('D', ''), element('E', leaf('F', null))),
  );
  assert.equal(xml, '<A><B>x</B></A>');
});
