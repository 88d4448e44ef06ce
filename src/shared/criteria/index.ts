export { judgeAcceptance, judgeCriterion, criterionName, type AcceptanceResult, type CriterionResult, type CriterionStatus, type JudgedCell, type Judgement } from './judge'
export { junitSuitesXml, junitXml, xmlText, type JunitInput, type JunitSuite } from './junit'
export { acceptanceText } from './text'
