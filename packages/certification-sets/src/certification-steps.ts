/**
 * The fifteen steps of the tax authority's certification portal, in the order it shows them: the
 * portal's own vocabulary, shared by the service (which follows a taxpayer through them) and the
 * simulator (which plays the portal). The list lives in `@ecf/contract`, where the portal reads it too.
 */
export { CERTIFICATION_STEPS, type TCertificationStep } from '@ecf/contract';
