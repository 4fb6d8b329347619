/**
 * What error codes each route's code can produce, read from the source with the TypeScript
 * checker (route-errors.test.ts compares it with the declared errors of route-errors.ts).
 *
 * A route's *unit* is where it is registered: every statement of its registering function that
 * names it (`ROUTES.x`, `PARTNER_ROUTES.x`, `R.x`, or an anchor of {@link UNIT_ANCHORS}), and the
 * statements that use a constant such a statement declares (`const send = ROUTES.sendAnnulment`).
 * From the unit the scan follows every function the code refers to, called or passed as a value
 * (a use-case handed to a registrar, a callback), through `@ecf/services` and the other packages,
 * to a fixed point, and collects each `new AppError(code, …, { status })`: the code from the type
 * of the first argument (a literal, or a union of literals for a helper that takes its code as a
 * parameter), the status from the registry or the literal `status` override.
 *
 * Over-approximation is the safe side (a function reached is assumed to run). What it cannot see:
 * functions reached only through a value whose type is a bare function type (the enqueue and
 * taxauth-client options, injected in app.ts): those are infrastructure and their failures are
 * the global edge codes. Routes registered by one shared statement (a family of routes) share one
 * unit: their codes are compared as a union.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ERROR_STATUS, type TErrorCode } from '@ecf/services';

/** A code argument typed as (most of) the registry (`TErrorCode`) says nothing of which code it is. */
const REGISTRY_SIZE = Object.keys(ERROR_STATUS).length;

const API_DIRECTORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPOSITORY = path.resolve(API_DIRECTORY, '../..');

/** Modules that describe routes rather than serve them: never a unit (the route tables are @ecf/contract's). */
const DESCRIPTIVE_MODULES = new Set(
  ['openapi.ts', 'route-limits.ts'].map((file) => path.join(API_DIRECTORY, 'src', file)),
);

/** Routes registered without naming their contract entry: the expression text that names them, in a module. */
export const UNIT_ANCHORS: Record<string, { module: string; text: string }> = {
  health: { module: 'src/routes/operational.ts', text: "'/healthz'" },
  readiness: { module: 'src/routes/operational.ts', text: "'/readyz'" },
  metrics: { module: 'src/routes/operational.ts', text: "'/metrics'" },
  receptionSeed: { module: 'src/routes/reception.ts', text: 'RECEPTION_PATHS.seed' },
  receptionCertificateValidation: {
    module: 'src/routes/reception.ts',
    text: 'RECEPTION_PATHS.certificateValidation',
  },
  receptionEcf: { module: 'src/routes/reception.ts', text: 'RECEPTION_PATHS.ecf' },
  receptionCommercialApproval: {
    module: 'src/routes/reception.ts',
    text: 'RECEPTION_PATHS.commercialApproval',
  },
};

/** The identifiers that hold a contract's route table in the route modules. */
const TABLE_NAMES = new Set(['ROUTES', 'PARTNER_ROUTES', 'R']);
/** Routes that are constants of their own in the contract's partner-api.ts. */
const ROUTE_CONSTANTS: Record<string, string> = {
  PARTNER_UPLOAD_ROUTE: 'uploadCertificate',
  PARTNER_UPLOAD_PREFLIGHT_ROUTE: 'uploadCertificatePreflight',
};

export type TProducedError = { code: TErrorCode; status: number; at: string; chain?: string[] };
export type TWideSite = { at: string; type: string };
export type TRouteUnit = { routes: string[]; produced: TProducedError[]; wide: TWideSite[] };

function where(node: ts.Node): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart());
  return `${path.relative(REPOSITORY, file.fileName)}:${line + 1}`;
}

function isOurs(file: ts.SourceFile): boolean {
  return !file.isDeclarationFile && !file.fileName.includes('/node_modules/');
}

export function createRouteErrorScan(routeNames: readonly string[]) {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(API_DIRECTORY, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('apps/api/tsconfig.json could not be read');
  const rootNames = parsed.fileNames.filter(
    (file) => file.startsWith(path.join(API_DIRECTORY, 'src')) && !file.endsWith('.test.ts'),
  );
  const program = ts.createProgram({ rootNames, options: parsed.options });
  const checker = program.getTypeChecker();
  const names = new Set(routeNames);

  function resolved(symbol: ts.Symbol | undefined): ts.Symbol | undefined {
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) return checker.getAliasedSymbol(symbol);
    return symbol;
  }

  /** The code (function bodies, initialisers) a declaration brings into reach. */
  function reachOf(declaration: ts.Declaration): ts.Node | undefined {
    if (!isOurs(declaration.getSourceFile())) return undefined;
    if (
      ts.isFunctionDeclaration(declaration) ||
      ts.isMethodDeclaration(declaration) ||
      ts.isArrowFunction(declaration) ||
      ts.isFunctionExpression(declaration) ||
      ts.isConstructorDeclaration(declaration) ||
      ts.isGetAccessorDeclaration(declaration)
    )
      return declaration;
    if (ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration))
      return declaration.initializer;
    if (ts.isPropertyDeclaration(declaration)) return declaration.initializer;
    if (ts.isClassDeclaration(declaration)) return declaration;
    return undefined;
  }

  function isAppErrorClass(expression: ts.Expression): boolean {
    const symbol = resolved(checker.getSymbolAtLocation(expression));
    return symbol?.getName() === 'AppError' && (symbol.flags & ts.SymbolFlags.Class) !== 0;
  }

  function literalsOf(type: ts.Type): Array<string | number> | undefined {
    const parts = type.isUnion() ? type.types : [type];
    const values: Array<string | number> = [];
    for (const part of parts) {
      if (part.isStringLiteral() || part.isNumberLiteral()) values.push(part.value);
      else return undefined;
    }
    return values;
  }

  /** The parameter `expression` names, when it is one of its function's. */
  function forwardedParameter(
    expression: ts.Expression,
  ): { fn: ts.SignatureDeclaration; index: number } | undefined {
    if (!ts.isIdentifier(expression)) return undefined;
    const declaration = checker.getSymbolAtLocation(expression)?.valueDeclaration;
    if (!declaration || !ts.isParameter(declaration)) return undefined;
    const fn = declaration.parent;
    return { fn, index: fn.parameters.indexOf(declaration) };
  }

  /** The function-like declarations a callee names. */
  function calleesOf(call: ts.CallExpression): ts.SignatureDeclaration[] {
    const symbol = resolved(checker.getSymbolAtLocation(call.expression));
    const out: ts.SignatureDeclaration[] = [];
    for (const declaration of symbol?.declarations ?? []) {
      const target = reachOf(declaration);
      if (target && ts.isFunctionLike(target)) out.push(target);
    }
    return out;
  }

  const forwarding = new Map<ts.SignatureDeclaration, Set<number>>();
  /** Which parameters of `fn` become the code of an AppError it makes (`refuse(code, …)`). */
  function forwardedIndexes(fn: ts.SignatureDeclaration): Set<number> {
    const known = forwarding.get(fn);
    if (known) return known;
    const indexes = new Set<number>();
    forwarding.set(fn, indexes);
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && isAppErrorClass(node.expression) && node.arguments?.[0]) {
        const parameter = forwardedParameter(node.arguments[0]);
        if (parameter?.fn === fn) indexes.add(parameter.index);
      }
      if (ts.isCallExpression(node))
        for (const callee of calleesOf(node))
          for (const index of forwardedIndexes(callee)) {
            const argument = node.arguments[index];
            const parameter = argument && forwardedParameter(argument);
            if (parameter?.fn === fn) indexes.add(parameter.index);
          }
      ts.forEachChild(node, visit);
    };
    if ('body' in fn && fn.body) visit(fn.body);
    return indexes;
  }

  /** Every `new AppError` reached from `start`, following the functions its code refers to. */
  function scan(start: readonly ts.Node[]) {
    const produced: TProducedError[] = [];
    const wide: TWideSite[] = [];
    const seen = new Set<ts.Node>();
    const queue = [...start];
    const from = new Map<ts.Node, ts.Node>();
    let current: ts.Node | undefined;
    const reach = (node: ts.Node | undefined) => {
      if (node && !seen.has(node)) {
        seen.add(node);
        if (current) from.set(node, current);
        queue.push(node);
      }
    };
    // SCAN_TRACE=<CODE> records, on each site of that code, the chain of functions that reached it.
    const chain = (node: ts.Node): string[] => {
      const out: string[] = [];
      for (let at: ts.Node | undefined = node; at; at = from.get(at)) out.push(where(at));
      return out;
    };
    const recordNew = (node: ts.NewExpression) => {
      const [codeArgument, , options] = node.arguments ?? [];
      if (!codeArgument) return;
      // `new AppError(error.code, …)` of a caught AppError: a re-throw, counted where it was made.
      if (ts.isPropertyAccessExpression(codeArgument) && codeArgument.name.text === 'code') {
        const owner = checker.getTypeAtLocation(codeArgument.expression);
        if (owner.getSymbol()?.getName() === 'AppError') return;
      }
      // A helper that takes its code as a parameter: its callers' arguments are the codes.
      if (forwardedParameter(codeArgument) !== undefined) return;
      const codes = literalsOf(checker.getTypeAtLocation(codeArgument));
      if (
        !codes ||
        codes.length > REGISTRY_SIZE / 2 ||
        codes.some((code) => typeof code !== 'string' || !(code in ERROR_STATUS))
      ) {
        wide.push({ at: where(node), type: checker.typeToString(checker.getTypeAtLocation(codeArgument)) });
        return;
      }
      let statuses: number[] | undefined;
      if (options && ts.isObjectLiteralExpression(options)) {
        const status = options.properties.find(
          (property) => property.name && ts.isIdentifier(property.name) && property.name.text === 'status',
        );
        if (status) {
          const values = literalsOf(
            checker.getTypeAtLocation(ts.isPropertyAssignment(status) ? status.initializer : status),
          );
          const numbers = values?.filter((value): value is number => typeof value === 'number');
          if (!numbers || numbers.length !== values?.length) {
            wide.push({ at: where(node), type: 'status override that is not a literal' });
            return;
          }
          statuses = numbers;
        }
      }
      for (const code of codes as TErrorCode[])
        for (const status of statuses ?? [ERROR_STATUS[code]])
          produced.push({
            code,
            status,
            at: where(node),
            chain: process.env.SCAN_TRACE === code ? chain(current!) : undefined,
          });
    };
    const recordForwarded = (call: ts.CallExpression) => {
      for (const callee of calleesOf(call))
        for (const index of forwardedIndexes(callee)) {
          const argument = call.arguments[index];
          if (!argument || forwardedParameter(argument)) continue;
          const codes = literalsOf(checker.getTypeAtLocation(argument));
          if (!codes || codes.length > REGISTRY_SIZE / 2 || codes.some((code) => !(code in ERROR_STATUS))) {
            wide.push({ at: where(call), type: checker.typeToString(checker.getTypeAtLocation(argument)) });
            continue;
          }
          for (const code of codes as TErrorCode[])
            produced.push({ code, status: ERROR_STATUS[code], at: where(call) });
        }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isInterfaceDeclaration(node)) return;
      if (ts.isTypeAliasDeclaration(node)) return;
      if (ts.isNewExpression(node) && isAppErrorClass(node.expression)) recordNew(node);
      if (ts.isCallExpression(node)) recordForwarded(node);
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
        const symbol = ts.isShorthandPropertyAssignment(node.parent)
          ? checker.getShorthandAssignmentValueSymbol(node.parent)
          : resolved(checker.getSymbolAtLocation(node));
        for (const declaration of symbol?.declarations ?? []) reach(reachOf(declaration));
      }
      ts.forEachChild(node, visit);
    };
    while (queue.length > 0) {
      current = queue.shift()!;
      visit(current);
    }
    return { produced, wide };
  }

  /** The statement of the registering function (or the module) that holds `node`. */
  function statementOf(node: ts.Node): ts.Statement {
    let current: ts.Node = node;
    let candidate: ts.Statement | undefined;
    while (current.parent) {
      const parent: ts.Node = current.parent;
      if (ts.isSourceFile(parent)) return (candidate ?? current) as ts.Statement;
      if (
        ts.isBlock(parent) &&
        ts.isFunctionDeclaration(parent.parent) &&
        ts.isSourceFile(parent.parent.parent)
      )
        return current as ts.Statement;
      if (ts.isStatement(current)) candidate = current;
      current = parent;
    }
    throw new Error(`no statement holds ${where(node)}`);
  }

  /** Statements after `statement` in its block that use a constant it declares. */
  function usersOf(statement: ts.Statement): ts.Statement[] {
    if (!ts.isVariableStatement(statement) || !ts.isBlock(statement.parent)) return [];
    const declared = new Set<ts.Symbol>();
    for (const declaration of statement.declarationList.declarations) {
      const symbol = checker.getSymbolAtLocation(declaration.name);
      if (symbol) declared.add(symbol);
    }
    const siblings = statement.parent.statements;
    return siblings.slice(siblings.indexOf(statement) + 1).filter((sibling) => {
      let uses = false;
      const visit = (node: ts.Node): void => {
        if (uses) return;
        if (ts.isIdentifier(node) && declared.has(checker.getSymbolAtLocation(node)!)) uses = true;
        else ts.forEachChild(node, visit);
      };
      visit(sibling);
      return uses;
    });
  }

  /** Route name → the statements that register it. */
  function registrations(): Map<string, Set<ts.Statement>> {
    const found = new Map<string, Set<ts.Statement>>();
    const add = (name: string, node: ts.Node) => {
      const statement = statementOf(node);
      const set = found.get(name) ?? new Set<ts.Statement>();
      for (const each of [statement, ...usersOf(statement)]) set.add(each);
      found.set(name, set);
    };
    for (const file of program.getSourceFiles()) {
      if (!isOurs(file) || !file.fileName.startsWith(path.join(API_DIRECTORY, 'src'))) continue;
      if (DESCRIPTIVE_MODULES.has(file.fileName) || file.fileName.endsWith('.test.ts')) continue;
      const module = path.relative(API_DIRECTORY, file.fileName);
      const anchors = Object.entries(UNIT_ANCHORS).filter(([, anchor]) => anchor.module === module);
      const visit = (node: ts.Node): void => {
        if (
          ts.isPropertyAccessExpression(node) &&
          ts.isIdentifier(node.expression) &&
          TABLE_NAMES.has(node.expression.text) &&
          names.has(node.name.text)
        )
          add(node.name.text, node);
        if (
          ts.isIdentifier(node) &&
          Object.hasOwn(ROUTE_CONSTANTS, node.text) &&
          !ts.isImportSpecifier(node.parent)
        )
          add(ROUTE_CONSTANTS[node.text]!, node);
        for (const [name, anchor] of anchors)
          if ((ts.isExpression(node) || ts.isTemplateSpan(node)) && node.getText() === anchor.text)
            add(name, node);
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    return found;
  }

  /** The units of the routes: routes whose registering statements overlap share one. */
  function units(): { units: TRouteUnit[]; unregistered: string[] } {
    const found = registrations();
    const groups: Array<{ routes: Set<string>; statements: Set<ts.Statement> }> = [];
    for (const [name, statements] of found) {
      const overlapping = groups.filter((group) =>
        [...statements].some((each) => group.statements.has(each)),
      );
      const merged = { routes: new Set([name]), statements: new Set(statements) };
      for (const group of overlapping) {
        for (const route of group.routes) merged.routes.add(route);
        for (const statement of group.statements) merged.statements.add(statement);
        groups.splice(groups.indexOf(group), 1);
      }
      groups.push(merged);
    }
    return {
      units: groups.map((group) => ({ routes: [...group.routes].sort(), ...scan([...group.statements]) })),
      unregistered: routeNames.filter((name) => !found.has(name)),
    };
  }

  /** What the modules of the global edge (plugins, hooks of app.ts) can produce. */
  function scanModules(modules: readonly string[]) {
    const files = modules.map((module) => {
      const file = program.getSourceFile(path.join(API_DIRECTORY, module));
      if (!file) throw new Error(`${module} is not in the program`);
      return file;
    });
    return scan(files);
  }

  return { units, scanModules };
}
