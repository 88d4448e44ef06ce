export { checkJobFile, MAX_JOB_FILE_CHARS, type JobFileCheck, type JobFileDevice, type JobFileJob } from './check'
export { describeJobFileProblem, parseJobFile, type JobFileProblem } from './parse'
export { runJobFiles, runJobFilesText, type RunJobFile } from './of-run'
