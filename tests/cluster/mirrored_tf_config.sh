#!/bin/sh
# Under mpirun: gives each rank a TF_CONFIG of one job of as many workers as there are ranks,
# whose task is the rank's mirror (rank r says it is worker N-1-r), and the names the program is
# to find (HXRT_TEST_EXPECTED_TASKS, by rank), then runs the program given.
n=$OMPI_COMM_WORLD_SIZE
r=$OMPI_COMM_WORLD_RANK
addresses=""
expected=""
i=0
while [ "$i" -lt "$n" ]; do
  addresses="$addresses${addresses:+, }\"host$i:2222\""
  expected="$expected${expected:+, }\"/job:worker/replica:0/task:$((n - 1 - i))\""
  i=$((i + 1))
done
task="{\"type\": \"worker\", \"index\": $((n - 1 - r))}"
TF_CONFIG="{\"cluster\": {\"worker\": [$addresses]}, \"task\": $task}"
HXRT_TEST_EXPECTED_TASKS="[$expected]"
export TF_CONFIG HXRT_TEST_EXPECTED_TASKS
exec "$@"
