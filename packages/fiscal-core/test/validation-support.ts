import type { TValidationContext } from '../src/validation/context.ts';
import { validateSubmission, type TValidationResult } from '../src/validation/validate-submission.ts';

/** Throwaway PKCS#12 signing certificates for other workspaces' tests (the portal's upload). */
export { createTestCertificate } from '../src/signing/test-certificate.ts';

/**
 * Shared fixtures of the validation tests: one account, one clock, and a realistic simplified
 * document per e-CF type (the same examples `docs/simplified-contract.md` shows).
 */
export const TEST_NOW = new Date('2026-11-21T15:00:00Z'); // 11:00 in Santo Domingo

export const TEST_ACCOUNT = {
  rnc: '131880738',
  legalName: 'Distribuidora Caribe Digital SRL',
  tradeName: 'Caribe Digital',
  address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo',
  phones: ['809-555-0101'],
  deferredSendAuthorized: false,
  paymentTermDays: 30,
} as const;

export function testContext(overrides: Partial<TValidationContext> = {}): TValidationContext {
  return { now: TEST_NOW, account: TEST_ACCOUNT, ...overrides };
}

type TJson = Record<string, unknown>;

const issuer = {
  rnc: '131880738',
  legalName: 'Distribuidora Caribe Digital SRL',
  address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo',
  phone: ['809-555-0101', '809-555-0102'],
};

/** One realistic simplified body per type. */
export const SIMPLIFIED_EXAMPLES: Readonly<Record<string, TJson>> = {
  '31': {
    type: 'E31',
    encf: 'E310000000101',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21T10:15:00-04:00',
    issuer,
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL', email: 'compras@lospinos.com.do' },
    paymentType: 'credit',
    dueDate: '2026-12-21',
    incomeType: '01',
    lines: [
      { name: 'Cemento gris 42.5 kg', quantity: 10, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' },
      { name: 'Transporte a obra', quantity: 1, unitPrice: 1500, itbisRate: 18, itemKind: 'service' },
      { name: 'Libro técnico', quantity: 2, unitPrice: '825.50', itbisRate: 'exempt', itemKind: 'good' },
    ],
  },
  '32': {
    type: 'E32',
    encf: 'E320000000201',
    issueDate: '2026-11-21T10:20:00-04:00',
    issuer,
    paymentType: 'card',
    incomeType: '01',
    pricesIncludeTax: true,
    lines: [
      { name: 'Café molido 1 lb', quantity: 2, unitPrice: '395.00', itbisRate: 18, itemKind: 'good' },
      { name: 'Leche entera 1 L', quantity: 3, unitPrice: '72.00', itbisRate: 'exempt', itemKind: 'good' },
    ],
  },
  '33': {
    type: 'E33',
    encf: 'E330000000301',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21',
    issuer,
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'credit',
    dueDate: '2026-12-21',
    incomeType: '01',
    reference: {
      encf: 'E310000000090',
      date: '2026-11-10',
      modificationCode: 3,
      reason: 'Intereses por mora',
    },
    lines: [
      {
        name: 'Intereses por pago tardío',
        quantity: 1,
        unitPrice: '350.00',
        itbisRate: 18,
        itemKind: 'service',
      },
    ],
  },
  '34': {
    type: 'E34',
    encf: 'E340000000401',
    issueDate: '2026-11-21',
    issuer,
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'cash',
    reference: {
      encf: 'E310000000090',
      date: '2026-11-10',
      modificationCode: 3,
      reason: 'Devolución de mercancía',
    },
    lines: [
      {
        name: 'Cemento gris 42.5 kg (devolución)',
        quantity: 2,
        unitPrice: '450.00',
        itbisRate: 18,
        itemKind: 'good',
      },
    ],
  },
  '41': {
    type: 'E41',
    encf: 'E410000000501',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21',
    issuer,
    buyer: { rnc: '40212345678', name: 'Juan Pérez Almonte' },
    paymentType: 'transfer',
    lines: [
      {
        name: 'Servicio de plomería',
        quantity: 1,
        unitPrice: '10000.00',
        itbisRate: 18,
        itemKind: 'service',
        itbisWithheldAmount: '1800.00',
        isrWithheldAmount: '1000.00',
      },
      {
        name: 'Tubería PVC 1/2"',
        quantity: 5,
        unitPrice: '120.00',
        itbisRate: 18,
        itemKind: 'good',
        itbisWithheldAmount: '54.00',
      },
    ],
  },
  '43': {
    type: 'E43',
    encf: 'E430000000601',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21',
    issuer,
    lines: [
      {
        name: 'Peaje autopista Duarte',
        quantity: 2,
        unitPrice: '100.00',
        itbisRate: 'exempt',
        itemKind: 'service',
      },
      { name: 'Estacionamiento', quantity: 1, unitPrice: '150.00', itbisRate: 'exempt', itemKind: 'service' },
    ],
  },
  '44': {
    type: 'E44',
    encf: 'E440000000701',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21',
    issuer,
    buyer: { rnc: '430123456', name: 'Zona Franca Industrial Las Américas' },
    paymentType: 'credit',
    dueDate: '2026-12-21',
    incomeType: '01',
    lines: [
      {
        name: 'Mantenimiento de maquinaria',
        quantity: 1,
        unitPrice: '25000.00',
        itbisRate: 'exempt',
        itemKind: 'service',
      },
    ],
  },
  '45': {
    type: 'E45',
    encf: 'E450000000801',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21',
    issuer,
    buyer: { rnc: '401007551', name: 'Ministerio de Educación' },
    paymentType: 'credit',
    dueDate: '2027-01-20',
    incomeType: '01',
    lines: [
      {
        name: 'Resma papel bond 8.5x11',
        quantity: 100,
        unitPrice: '285.00',
        itbisRate: 18,
        itemKind: 'good',
      },
      { name: 'Tóner HP 85A', quantity: 4, unitPrice: '3150.00', itbisRate: 18, itemKind: 'good' },
    ],
  },
  '46': {
    type: 'E46',
    encf: 'E460000000901',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21',
    issuer,
    buyer: { foreignId: 'US-EIN-84-1234567', name: 'Caribbean Imports LLC' },
    paymentType: 'transfer',
    incomeType: '01',
    currency: 'USD',
    exchangeRate: '60.2500',
    lines: [
      {
        name: 'Cacao en grano orgánico (qq)',
        quantity: 50,
        unitPrice: '210.00',
        itbisRate: 0,
        itemKind: 'good',
      },
    ],
  },
  '47': {
    type: 'E47',
    encf: 'E470000001001',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21',
    issuer,
    buyer: { foreignId: 'ES-B12345678', name: 'Consultores Ibéricos SL' },
    paymentType: 'transfer',
    lines: [
      {
        name: 'Licencia de software anual',
        quantity: 1,
        unitPrice: '120000.00',
        itbisRate: 'exempt',
        itemKind: 'service',
        isrWithheldAmount: '32400.00',
      },
    ],
  },
};

/** A deep copy to modify in one test without touching the shared example. */
export function example(type: string): TJson {
  const value = SIMPLIFIED_EXAMPLES[type];
  if (value === undefined) throw new Error(`No example for ${type}`);
  return structuredClone(value);
}

/** Validates a body (object or raw text) with the test context. */
export async function validate(
  body: unknown,
  overrides: Partial<TValidationContext> = {},
): Promise<TValidationResult> {
  return validateSubmission(typeof body === 'string' ? body : JSON.stringify(body), testContext(overrides));
}

/** The tax-authority JSON of a type: the tree the service builds from the simplified example. */
export async function taxauthExample(type: string): Promise<TJson> {
  const result = await validate(example(type));
  if (!result.success) throw new Error(`Example ${type} does not validate: ${JSON.stringify(result.errors)}`);
  return structuredClone({ ECF: result.data.document.ECF });
}

/**
 * Sets (or with `undefined` removes) the value at a path such as `ECF.DetallesItems.Item[0].MontoItem`
 * or `lines[1].unitPrice`, creating objects on the way. Returns the same object for chaining.
 */
export function setPath(target: TJson, path: string, value: unknown): TJson {
  const segments = path.split('.').flatMap((part) => {
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    const name = match?.[1] ?? part;
    const indexes = [...(match?.[2] ?? '').matchAll(/\[(\d+)\]/g)].map((index) => Number(index[1]));
    return [...(name === '' ? [] : [name]), ...indexes];
  });
  let current: unknown = target;
  segments.forEach((segment, position) => {
    const container = current as Record<string | number, unknown>;
    if (position === segments.length - 1) {
      if (value === undefined) {
        if (Array.isArray(container) && typeof segment === 'number') container.splice(segment, 1);
        else delete container[segment];
      } else {
        container[segment] = value;
      }
      return;
    }
    if (container[segment] === undefined)
      container[segment] = typeof segments[position + 1] === 'number' ? [] : {};
    current = container[segment];
  });
  return target;
}

/** The value at such a path. */
export function getPath(target: unknown, path: string): unknown {
  let current: unknown = target;
  for (const part of path.split(/\.|(?=\[)/)) {
    if (current === undefined || current === null) return undefined;
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** The issues of a failed validation as `code@path` strings, for compact assertions. */
export function issuesOf(result: TValidationResult): { errors: string[]; warnings: string[] } {
  const warnings = result.success ? result.data.warnings : result.warnings;
  return {
    errors: result.success ? [] : result.errors.map((error) => `${error.code}@${error.path}`),
    warnings: warnings.map((warning) => `${warning.code}@${warning.path}`),
  };
}
