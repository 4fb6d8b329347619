// CSS modules as TypeScript sees them (Next.js compiles them for the portal; tests load class
// names through test/register-css-modules.mjs).
declare module '*.module.css' {
  const classes: Readonly<Record<string, string>>;
  export default classes;
}
