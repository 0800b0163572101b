/**
 * Two changes the browser build makes to libraries of the first load, so that evaluating it creates
 * no error object (docs/decisions/0014-first-load.md, Errors while the first load is evaluated).
 * With DevTools attached, as Lighthouse is, an error created while the first-load file's top level
 * is on the stack makes V8 work out the source positions of that whole file again: here 100-270 ms
 * of one task at full speed, each time. Each function returns the changed file, or throws when the
 * library (pinned) no longer has the lines it changes, so the build fails instead of shipping the
 * cost again unnoticed.
 */

/** zod's shared settings, as zod/v4/core/core.js creates them when nothing has yet. */
const ZOD_SETTINGS = '(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});';

/**
 * zod/v4/core/core.js with `jitless` on from the start. zod otherwise probes, at the first object
 * schema, whether it may compile parsers with `new Function`: the page's content security policy
 * allows no eval, so the probe breaks it (a `securitypolicyviolation` on every page) and creates an
 * EvalError. Without eval zod parses as it does after a failed probe.
 */
export function zodWithoutEvalProbe(code: string): string {
  if (!code.includes(ZOD_SETTINGS))
    throw new Error(`zod changed: "${ZOD_SETTINGS}" is no longer in core/core.js`);
  return code.replace(ZOD_SETTINGS, () => ZOD_SETTINGS.replace('= {})', '= { jitless: true })'));
}

/**
 * Creates an Error without capturing the stack: V8 captures none while Error.stackTraceLimit is not
 * a number, even with DevTools attached. Added to React DOM's client by reactSentinelsWithoutStack.
 */
export const ERROR_WITHOUT_STACK = `function errorWithoutStack(message) {
  var limit = Error.stackTraceLimit;
  if (typeof limit !== "number") return Error(message);
  Error.stackTraceLimit = undefined;
  try {
    return Error(message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
`;

/**
 * The errors React DOM's client creates once, at the top level of its module, by their codes: it
 * throws them to unwind a render (a suspended component, a hydration mismatch) and knows them by
 * identity. Their stack is never shown.
 */
export const REACT_SENTINEL_ERRORS = [519, 460, 474, 542, 461] as const;

/**
 * react-dom/cjs/react-dom-client.production.js with its top-level sentinel errors created by
 * errorWithoutStack. Each keeps its message and its identity; only its (unused) stack goes.
 */
export function reactSentinelsWithoutStack(code: string): string {
  let result = code;
  for (const errorCode of REACT_SENTINEL_ERRORS) {
    const declaration = new RegExp(
      `^(var |  )(\\w+ = )Error\\(formatProdErrorMessage\\(${errorCode}\\)\\)`,
      'm',
    );
    if (!declaration.test(result)) {
      throw new Error(
        `react-dom changed: error ${errorCode} is no longer created at the top level of its client`,
      );
    }
    result = result.replace(
      declaration,
      (_, start: string, name: string) =>
        `${start}${name}errorWithoutStack(formatProdErrorMessage(${errorCode}))`,
    );
  }
  // A function declaration: hoisted, so it can go at the end.
  return `${result}\n${ERROR_WITHOUT_STACK}`;
}
