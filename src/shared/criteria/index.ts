export { judgeAcceptance, judgeCriterion, criterionName, type AcceptanceResult, type CriterionResult, type CriterionStatus, type JudgedCell, type Judgement } from './judge'
export { junitXml, xmlText, type JunitInput } from './junit'
export { acceptanceText } from './text'
