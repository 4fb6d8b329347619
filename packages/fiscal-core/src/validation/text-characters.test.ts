import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildEcfXml } from '../xml/ecf-writer.ts';
import { INVALID_XML_CHARACTER } from '../xml/ordered-writer.ts';
import {
  example,
  getPath,
  issuesOf,
  setPath,
  taxauthExample,
  TEST_ACCOUNT,
  validate,
} from '../../test/validation-support.ts';
import { findDisallowedCharacter } from './text-characters.ts';
import type { TValidationResult } from './validate-submission.ts';

function errorsOf(result: TValidationResult) {
  assert.ok(!result.success, 'expected the submission to be refused');
  return result.errors;
}

describe('findDisallowedCharacter', () => {
  test('refuses C0 (CR included), DEL, C1, U+2028/U+2029, noncharacters and lone surrogates, naming the first', () => {
    const refused: Array<[string, string]> = [
      ['\u0000', 'U+0000'],
      ['\u0008', 'U+0008'],
      ['\u000B', 'U+000B'],
      ['\u000C', 'U+000C'],
      ['\r', 'U+000D'],
      ['\u001F', 'U+001F'],
      ['\u007F', 'U+007F'],
      ['\u0080', 'U+0080'],
      ['\u0085', 'U+0085'],
      ['\u009F', 'U+009F'],
      ['\u2028', 'U+2028'],
      ['\u2029', 'U+2029'],
      ['\uFDD0', 'U+FDD0'],
      ['\uFDEF', 'U+FDEF'],
      ['\uFFFE', 'U+FFFE'],
      ['\uFFFF', 'U+FFFF'],
      ['\u{1FFFE}', 'U+1FFFE'],
      ['\u{10FFFF}', 'U+10FFFF'],
      ['\uD800', 'U+D800'],
      ['\uDC00', 'U+DC00'],
    ];
    for (const [character, codePoint] of refused) {
      assert.deepEqual(
        findDisallowedCharacter(`Ana${character}Pérez\u2028`),
        { codePoint, position: 4 },
        codePoint,
      );
    }
  });

  test('accepts tab, line feed, letters of any script, symbols, private use and characters outside the BMP', () => {
    for (const text of [
      'Línea uno\nlínea dos\tcolumna',
      'Ñandú & Cía., S.R.L. <café> "100 %"',
      '\u00A0\u00AD\u200B\uFEFF\uFFFD\uE000\uFDCF\uFDF0',
      'Emoji 😀 and 𝄞, U+1FFFD \u{1FFFD}, U+10FFFD \u{10FFFD}',
      '',
    ])
      assert.equal(findDisallowedCharacter(text), undefined, JSON.stringify(text));
  });

  test('positions count characters, so a character outside the BMP is one', () => {
    assert.deepEqual(findDisallowedCharacter('😀😀\u0085'), { codePoint: 'U+0085', position: 3 });
    // A high surrogate followed by a character that is not a low surrogate is alone.
    assert.deepEqual(findDisallowedCharacter('ab\uD83Dc'), { codePoint: 'U+D83D', position: 3 });
  });

  test('refuses every code point the XML writers refuse (XML_CHARACTER_INVALID), so validation always speaks first', () => {
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      const character = String.fromCodePoint(codePoint);
      if (INVALID_XML_CHARACTER.test(character))
        assert.ok(findDisallowedCharacter(character) !== undefined, codePoint.toString(16));
    }
  });
});

describe('validateSubmission: TEXT_CHARACTER_NOT_ALLOWED', () => {
  test('simplified contract: each field on the path the client wrote, with the code point and its position, all collected', async () => {
    const body = example('31');
    setPath(body, 'buyer.name', 'Ferretería\u0085Los Pinos');
    setPath(body, 'lines[1].name', 'Transporte\u2028a obra');
    setPath(body, 'issuer.address', 'Calle 1\u0000');
    const errors = errorsOf(await validate(body));
    assert.deepEqual(
      errors.map((error) => [error.path, error.code, error.details]),
      [
        [
          'issuer.address',
          'TEXT_CHARACTER_NOT_ALLOWED',
          { codePoint: 'U+0000', position: 8, code: 'TEXT_CHARACTER_NOT_ALLOWED' },
        ],
        [
          'buyer.name',
          'TEXT_CHARACTER_NOT_ALLOWED',
          { codePoint: 'U+0085', position: 11, code: 'TEXT_CHARACTER_NOT_ALLOWED' },
        ],
        [
          'lines[1].name',
          'TEXT_CHARACTER_NOT_ALLOWED',
          { codePoint: 'U+2028', position: 11, code: 'TEXT_CHARACTER_NOT_ALLOWED' },
        ],
      ],
    );
    assert.match(
      errors[1]?.message ?? '',
      /buyer\.name contains U\+0085 \(a C1 control character\) at position 11/,
    );
  });

  test('tax-authority JSON: the element path as sent, also inside a single item sent as an object', async () => {
    const body = await taxauthExample('43');
    setPath(body, 'ECF.DetallesItems.Item', getPath(body, 'ECF.DetallesItems.Item[0]'));
    setPath(body, 'ECF.DetallesItems.Item.NombreItem', 'Peaje\u2029autopista');
    setPath(body, 'ECF.Encabezado.Emisor.RazonSocialEmisor', 'Distribuidora\u009FCaribe');
    assert.deepEqual(issuesOf(await validate(body)).errors, [
      'TEXT_CHARACTER_NOT_ALLOWED@ECF.Encabezado.Emisor.RazonSocialEmisor',
      'TEXT_CHARACTER_NOT_ALLOWED@ECF.DetallesItems.Item.NombreItem',
    ]);
  });

  test('a lone surrogate sent as a JSON escape is refused', async () => {
    const text = JSON.stringify(example('31')).replace('"Ferretería Los Pinos SRL"', '"Ferreter\\ud800ía"');
    const [error] = errorsOf(await validate(text));
    assert.deepEqual(
      [error?.path, error?.details['codePoint'], error?.details['position']],
      ['buyer.name', 'U+D800', 9],
    );
  });

  test('the value gets this error alone: no date, code or format error on the same path, other fields still reported', async () => {
    const simplified = example('31');
    setPath(simplified, 'paymentType', 'credit\u0085');
    setPath(simplified, 'encf', 'E310000000101\u2028');
    setPath(simplified, 'lines[0].quantity', -1);
    assert.deepEqual(issuesOf(await validate(simplified)).errors, [
      'TEXT_CHARACTER_NOT_ALLOWED@encf',
      'TEXT_CHARACTER_NOT_ALLOWED@paymentType',
      'FIELD_VALUE_INVALID@lines[0].quantity',
    ]);

    const taxauth = await taxauthExample('31');
    setPath(taxauth, 'ECF.Encabezado.Emisor.FechaEmision', '21-11-2026\r\n');
    setPath(taxauth, 'ECF.Encabezado.Totales.MontoTotal', '8731.00\u0085');
    assert.deepEqual(issuesOf(await validate(taxauth)).errors, [
      'TEXT_CHARACTER_NOT_ALLOWED@ECF.Encabezado.Emisor.FechaEmision',
      'TEXT_CHARACTER_NOT_ALLOWED@ECF.Encabezado.Totales.MontoTotal',
    ]);
  });

  test('values the account fills are checked too: a placeholder on its path, the issuer fallback on the issuer field', async () => {
    const account = { ...TEST_ACCOUNT, legalName: 'Distribuidora\u2028Caribe' };
    const withPlaceholder = example('31');
    setPath(withPlaceholder, 'buyer.name', '{{RAZON_SOCIAL}}');
    assert.ok(
      issuesOf(await validate(withPlaceholder, { account })).errors.includes(
        'TEXT_CHARACTER_NOT_ALLOWED@buyer.name',
      ),
    );

    const withoutLegalName = example('31');
    setPath(withoutLegalName, 'issuer.legalName', undefined);
    assert.deepEqual(issuesOf(await validate(withoutLegalName, { account })).errors, [
      'TEXT_CHARACTER_NOT_ALLOWED@issuer.legalName',
    ]);
  });

  test('tab and line feed are kept, written into the XML as sent', async () => {
    const body = example('31');
    setPath(body, 'issuer.address', 'Av. Winston Churchill 1099\nPiantini, Santo Domingo');
    setPath(body, 'lines[0].name', 'Cemento\tgris 42.5 kg');
    const result = await validate(body);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    const xml = buildEcfXml({
      ECF: { ...result.data.document.ECF, FechaHoraFirma: '21-11-2026 11:00:00' },
    });
    assert.ok(xml.success);
    assert.ok(
      xml.data.includes(
        '<DireccionEmisor>Av. Winston Churchill 1099\nPiantini, Santo Domingo</DireccionEmisor>',
      ),
    );
    assert.ok(xml.data.includes('<NombreItem>Cemento\tgris 42.5 kg</NombreItem>'));
  });
});
