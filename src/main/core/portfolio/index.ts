/**
 * The portfolio capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { portfolioHandlers } from './handlers.ts';
export { answerWarmer, type AnswerWarmer } from './warm.ts';
export { portfolioNav, portfolioNavUnlessAborted } from './nav.ts';
export { keptJudge, positionsMoved, type KeptJudge } from './kept-judge.ts';
export { inputCountsBySide, type WalletInputs } from './store/inputs.ts';
export { forgetAnswers } from './store/answers.ts';
export { VIEW_OF, lendingRisk, portfolioView, unlockLadder, walletsOf } from './view.ts';
