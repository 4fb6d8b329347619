// The reception's cost limits in isolation (issue 25; docs/receiving.md "Limits"): the pre-scan that
// counts elements, attributes and depth before any tree (comments, CDATA and processing
// instructions skipped whole, a declaration anywhere else refused), and the per-sender CPU budget.
// The routes' behaviour with them is in apps/api/src/routes/reception-hostile.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../shared/errors.ts';
import { createSenderCpuBudget, metered } from './cpu-budget.ts';
import { MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_ELEMENTS, scanMarkup } from './reception-model.ts';

function reasonOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error.details['reason'];
  }
  return undefined;
}

test('scanMarkup counts start tags and attributes; comments, CDATA and PIs are skipped whole', () => {
  assert.deepEqual(scanMarkup('<?xml version="1.0"?><ECF a="1" b=\'x>y\'><X/><Y>t</Y></ECF>'), {
    elements: 3,
    attributes: 2,
  });
  assert.deepEqual(
    scanMarkup(
      '<!-- <a><b> <!DOCTYPE x> --><ECF><![CDATA[<c><d> <!ENTITY e "f">]]><?pi <g> <!DOCTYPE h>?></ECF>',
    ),
    { elements: 1, attributes: 0 },
  );
});

test('scanMarkup stops at each limit with its reason, exactly past it', () => {
  const elements = (count: number) => `<ECF>${'<a/>'.repeat(count - 1)}</ECF>`;
  assert.equal(scanMarkup(elements(MAX_XML_ELEMENTS)).elements, MAX_XML_ELEMENTS);
  assert.equal(
    reasonOf(() => scanMarkup(elements(MAX_XML_ELEMENTS + 1))),
    'xml_too_many_elements',
  );
  const attributes = (count: number) =>
    `<ECF ${Array.from({ length: count }, (_unused, index) => `a${index}="1"`).join(' ')}/>`;
  assert.equal(scanMarkup(attributes(MAX_XML_ATTRIBUTES)).attributes, MAX_XML_ATTRIBUTES);
  assert.equal(
    reasonOf(() => scanMarkup(attributes(MAX_XML_ATTRIBUTES + 1))),
    'xml_too_many_attributes',
  );
  const deep = (levels: number) => `${'<a>'.repeat(levels)}${'</a>'.repeat(levels)}`;
  assert.equal(
    reasonOf(() => scanMarkup(deep(MAX_XML_DEPTH))),
    undefined,
  );
  assert.equal(
    reasonOf(() => scanMarkup(deep(MAX_XML_DEPTH + 1))),
    'xml_too_deep',
  );
});

test('scanMarkup: a declaration as markup is refused anywhere; unterminated markup is malformed', () => {
  for (const text of ['<!DOCTYPE x><ECF/>', '<ECF><!ENTITY x "y"></ECF>', '<!-- c --><!doctype x><ECF/>'])
    assert.equal(
      reasonOf(() => scanMarkup(text)),
      'xml_doctype_forbidden',
      text,
    );
  for (const text of ['<ECF><!-- never closed', '<ECF><![CDATA[ never closed', '<?pi', '<ECF a="1'])
    assert.equal(
      reasonOf(() => scanMarkup(text)),
      'xml_malformed',
      text,
    );
});

test('250,000 elements are refused in a few milliseconds, not after reading them all', () => {
  const text = `<ECF>${'<a>1</a>'.repeat(250_000)}</ECF>`;
  scanMarkup('<ECF/>');
  const started = performance.now();
  assert.equal(
    reasonOf(() => scanMarkup(text)),
    'xml_too_many_elements',
  );
  const elapsed = performance.now() - started;
  // About 15 ms on a quiet machine; a loaded CI machine once took 112 ms. A DOM of 250,000
  // elements takes seconds: the bound keeps that difference without failing on a busy machine.
  assert.ok(elapsed < 400, `${Math.round(elapsed)} ms`);
});

test('the CPU budget: a new sender starts full, is refused once spent, refills at its rate; others unaffected', () => {
  const budget = createSenderCpuBudget({ msPerMinute: 600, burstMs: 100 });
  assert.equal(budget.wait('a', 0), undefined);
  budget.charge('a', 250, 0);
  assert.equal(budget.balance('a', 0), -150);
  // 10 ms of CPU regained per second: 150 ms of debt is 15 s, plus the first positive millisecond.
  assert.equal(budget.wait('a', 0), 16);
  assert.equal(budget.wait('b', 0), undefined, 'another sender is served');
  assert.equal(budget.wait('a', 15_000), 1);
  assert.equal(budget.wait('a', 15_200), undefined);
  assert.equal(budget.balance('a', 3_600_000), 100, 'never more than the burst');
});

test('the CPU budget remembers at most maxSenders, dropping the ones back to full first', () => {
  const budget = createSenderCpuBudget({ msPerMinute: 60, burstMs: 10, maxSenders: 2 });
  budget.charge('idle', 1, 0);
  budget.charge('debtor', 1_000, 0);
  budget.charge('new', 1, 60_000);
  assert.ok(budget.wait('debtor', 60_000) !== undefined, 'the sender in debt is still remembered');
});

test('metered adds the time of a step, returned or thrown', () => {
  const meter = { spentMs: 0 };
  assert.equal(
    metered(meter, () => {
      const end = performance.now() + 5;
      while (performance.now() < end);
      return 7;
    }),
    7,
  );
  assert.throws(() =>
    metered(meter, () => {
      throw new Error('x');
    }),
  );
  assert.ok(meter.spentMs >= 5, String(meter.spentMs));
  assert.equal(
    metered(undefined, () => 1),
    1,
  );
});
