/**
 * Try it's examples: simplified-contract documents taken from the contract's own examples
 * (packages/fiscal-core/docs/simplified-contract.md, "Examples, one per type"), with the account's
 * data as placeholders ({{RNC}}, {{RAZON_SOCIAL}}, {{FECHA_EMISION}}) so they validate for any
 * account, and a fresh eNCF each time one is loaded (the eNCF and the JSON are what makes an
 * emission a replay). One example is broken on purpose, to see the preflight's field errors.
 * Client-safe.
 */

export type TTryItExample = {
  id: string;
  label: string;
  build: (sequence: string) => Record<string, unknown>;
};

const issuer = { rnc: '{{RNC}}', legalName: '{{RAZON_SOCIAL}}' };

export const TRY_IT_EXAMPLES: readonly TTryItExample[] = [
  {
    id: 'e31',
    label: 'E31 Factura de Crédito Fiscal (válida)',
    build: (sequence) => ({
      type: 'E31',
      encf: `E31${sequence}`,
      sequenceExpirationDate: '31-12-2027',
      issueDate: '{{FECHA_EMISION}}',
      issuer,
      buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
      paymentType: 'transfer',
      incomeType: '01',
      lines: [
        { name: 'Cemento gris 42.5 kg', quantity: 10, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' },
        { name: 'Transporte a obra', quantity: 1, unitPrice: '1500.00', itbisRate: 18, itemKind: 'service' },
        { name: 'Libro técnico', quantity: 2, unitPrice: '825.50', itbisRate: 'exempt', itemKind: 'good' },
      ],
    }),
  },
  {
    id: 'e32',
    label: 'E32 Factura de Consumo (válida)',
    build: (sequence) => ({
      type: 'E32',
      encf: `E32${sequence}`,
      issueDate: '{{FECHA_EMISION}}',
      issuer,
      paymentType: 'card',
      incomeType: '01',
      pricesIncludeTax: true,
      lines: [
        { name: 'Café molido 1 lb', quantity: 2, unitPrice: '395.00', itbisRate: 18, itemKind: 'good' },
        { name: 'Leche entera 1 L', quantity: 3, unitPrice: '72.00', itbisRate: 'exempt', itemKind: 'good' },
      ],
    }),
  },
  {
    id: 'e31-broken',
    label: 'E31 con errores (para ver la prevalidación)',
    build: (sequence) => ({
      type: 'E31',
      encf: `E31${sequence}`,
      sequenceExpirationDate: '31-12-2027',
      issueDate: '{{FECHA_EMISION}}',
      issuer,
      paymentType: 'transfer',
      incomeType: '01',
      lines: [
        {
          name: 'Cemento gris 42.5 kg',
          quantity: 10,
          unitPrice: '1,450.00',
          itbisRate: 18,
          itemKind: 'good',
        },
      ],
    }),
  },
];

/** Ten random digits: the sequence part of a fresh eNCF. */
export function randomSequence(): string {
  const digits = new Uint8Array(10);
  crypto.getRandomValues(digits);
  return Array.from(digits, (digit) => String(digit % 10)).join('');
}

/** The example as the editor shows it (indented JSON with a fresh eNCF). */
export function exampleText(id: string, sequence = randomSequence()): string {
  const example = TRY_IT_EXAMPLES.find((candidate) => candidate.id === id) ?? TRY_IT_EXAMPLES[0];
  return JSON.stringify(example?.build(sequence) ?? {}, null, 2);
}
