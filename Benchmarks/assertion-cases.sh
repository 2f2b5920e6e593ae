# The matching-assertion cases of LineDiffBenchmark, as run.sh and compare-revisions.sh time them.
# Sourced, not run.

# The calls one run of `LineDiffBenchmark assert CASE RUNS` times (it prints their median).
assert_runs_for() {
  case $1 in lines-5000) echo 51 ;; dump-200) echo 11 ;; lines-20 | dump-small) echo 501 ;; *) echo 101 ;; esac
}
# The k of an instruction count: callgrind's total with 2k calls minus that with k, over k.
assert_calls_for() {
  case $1 in lines-5000) echo 10 ;; dump-200) echo 2 ;; lines-20 | dump-small) echo 50 ;; *) echo 10 ;; esac
}
# The case as a table row names it.
describe_assertion() {
  case $1 in
  lines-5000) echo '`verifySnapshot(of: text, as: .lines)`, 5,000 lines (101 kB)' ;;
  lines-20) echo '`verifySnapshot(of: text, as: .lines)`, 20 lines' ;;
  dump-200) echo '`verifySnapshot(of: customers, as: .dump)`, 200 nested structs (2,451 lines, 58 kB)' ;;
  dump-small) echo '`verifySnapshot(of: user, as: .dump)`, a struct of 3 fields' ;;
  *) echo "\`$1\`" ;;
  esac
}
