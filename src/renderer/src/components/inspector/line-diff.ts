// The line diff lives in src/shared so the command line's evaluation comparison uses the same one.
export * from '../../../../shared/line-diff'
