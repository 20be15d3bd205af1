#!/usr/bin/env bash
# pin.sh pins the real-upgrade corpus against each server's older release,
# the way a team would pin its own: jig call --pin, one scenario per file,
# --append for the steps of a scenario. Run it from the repository root
# after .ci/peers; review the diff of testdata/corpus before committing.
# TestUpgradeCorpus replays these fixtures against the older release (green,
# three times) and the current one (the drift in *.drift.txt).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=session/replay/testdata/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/jig" ./cmd/jig
jig() { "$tmp/jig" "$1" --no-record "${@:2}" >/dev/null; }
# Servers that run in their scratch directory (--cwd '$JIG_SCRATCH') need
# the absolute path of their script; the fixtures keep it relative to the
# repository (.peers/...), and the test replays them with the installed
# peer's path on the command line, as CI replays against a new release.
P=$(pwd)/.peers

# server-everything 2025.11.25 (npm-old), stdio.
SE="node $P/npm-old/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio"
d=$out/everything; rm -rf "$d"; mkdir -p "$d"
jig call echo --args '{"message":"hello corpus"}' --pin $d/echo.json --note "happy path" -- $SE
jig call add --args '{"a":2,"b":3}' --pin $d/add.json -- $SE
jig call add --args '{"a":"two","b":3}' --pin $d/add-wrong-type.json --note "arguments of the wrong type: the error the server gives" -- $SE || true
jig call getTinyImage --pin $d/tiny-image.json --note "an image block between two texts" -- $SE
jig call annotatedMessage --args '{"messageType":"error","includeImage":false}' --pin $d/annotated-error.json -- $SE
jig call getResourceReference --args '{"resourceId":3}' --pin $d/resource-reference.json --note "an embedded resource" -- $SE
jig call getResourceLinks --args '{"count":3}' --pin $d/resource-links.json -- $SE
jig call structuredContent --args '{"location":"New York"}' --pin $d/structured.json --note "structuredContent with an outputSchema" -- $SE
jig call nope --pin $d/unknown-tool.json --note "a tool that does not exist" -- $SE || true

# server-memory 2025.4.25: a knowledge graph in a file of the session's own.
MEM="node $P/corpus/memory-2025.4.25/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
MEMENV=(--env 'MEMORY_FILE_PATH=$JIG_SCRATCH/memory.json')
d=$out/memory; rm -rf "$d"; mkdir -p "$d"
people='{"entities":[{"name":"Alice","entityType":"person","observations":["works on jig"]},{"name":"Bob","entityType":"person","observations":["reviews fixtures"]}]}'
jig call create_entities --args "$people" --pin $d/create-then-read.json --step create --note "create, relate, then read the graph back" "${MEMENV[@]}" -- $MEM
jig call create_relations --args '{"relations":[{"from":"Alice","to":"Bob","relationType":"pairs with"}]}' --pin $d/create-then-read.json --append --step relate
jig call read_graph --pin $d/create-then-read.json --append --step read
jig call create_entities --args "$people" --pin $d/observe-then-search.json --step create "${MEMENV[@]}" -- $MEM
jig call add_observations --args '{"observations":[{"entityName":"Alice","contents":["pins scenarios"]}]}' --pin $d/observe-then-search.json --append --step observe
jig call search_nodes --args '{"query":"scenarios"}' --pin $d/observe-then-search.json --append --step search
jig call search_nodes --args '{"query":"nobody"}' --pin $d/search-empty.json --note "an empty graph: nothing found" "${MEMENV[@]}" -- $MEM
jig call open_nodes --args '{"names":["Ghost"]}' --pin $d/open-missing.json "${MEMENV[@]}" -- $MEM
jig call create_entities --args "$people" --pin $d/delete-then-read.json --step create "${MEMENV[@]}" -- $MEM
jig call delete_entities --args '{"entityNames":["Bob"]}' --pin $d/delete-then-read.json --append --step delete
jig call read_graph --pin $d/delete-then-read.json --append --step read

# server-sequential-thinking 2025.7.1: a thought history per process.
ST="node $P/corpus/thinking-2025.7.1/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"
d=$out/thinking; rm -rf "$d"; mkdir -p "$d"
for i in 1 2 3 4 5 6 7 8; do
  next=true; [ $i = 8 ] && next=false
  jig call sequentialthinking --args "{\"thought\":\"thought $i of 8\",\"thoughtNumber\":$i,\"totalThoughts\":8,\"nextThoughtNeeded\":$next}" --pin $d/thought-$i.json -- $ST
done
jig call sequentialthinking --args '{"thought":"plan","thoughtNumber":1,"totalThoughts":3,"nextThoughtNeeded":true}' --pin $d/revise.json --step plan --note "three thoughts in one session, one revising another" -- $ST
jig call sequentialthinking --args '{"thought":"try","thoughtNumber":2,"totalThoughts":3,"nextThoughtNeeded":true}' --pin $d/revise.json --append --step try
jig call sequentialthinking --args '{"thought":"plan, revised","thoughtNumber":3,"totalThoughts":3,"nextThoughtNeeded":false,"isRevision":true,"revisesThought":1}' --pin $d/revise.json --append --step revise
jig call sequentialthinking --args '{"thought":5}' --pin $d/invalid.json --note "a thought that is not a string" -- $ST || true

# server-filesystem 2025.7.1, allowed the session's scratch directory.
FS="node $P/corpus/filesystem-2025.7.1/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js ."
FSCWD=(--cwd '$JIG_SCRATCH')
d=$out/filesystem; rm -rf "$d"; mkdir -p "$d"
jig call write_file --args '{"path":"notes.txt","content":"hello\nworld\n"}' --pin $d/write-then-read.json --step write "${FSCWD[@]}" -- $FS
jig call read_file --args '{"path":"notes.txt"}' --pin $d/write-then-read.json --append --step read
jig call write_file --args '{"path":"a.txt","content":"a"}' --pin $d/write-then-search.json --step write-a "${FSCWD[@]}" -- $FS
jig call create_directory --args '{"path":"sub"}' --pin $d/write-then-search.json --append --step mkdir
jig call write_file --args '{"path":"sub/c.txt","content":"c"}' --pin $d/write-then-search.json --append --step write-c
jig call write_file --args '{"path":"b.md","content":"b"}' --pin $d/write-then-search.json --append --step write-b
jig call search_files --args '{"path":".","pattern":"txt"}' --pin $d/write-then-search.json --append --step search
jig call list_directory --args '{"path":"."}' --pin $d/write-then-search.json --append --step list
jig call directory_tree --args '{"path":"."}' --pin $d/write-then-search.json --append --step tree
jig call write_file --args '{"path":"notes.txt","content":"hello"}' --pin $d/file-info.json --step write "${FSCWD[@]}" -- $FS
jig call get_file_info --args '{"path":"notes.txt"}' --pin $d/file-info.json --append --step info
python3 -c 'import json; print(json.dumps({"path": "big.txt", "content": "\n".join("line %05d of a large file" % i for i in range(4000))}))' > "$tmp/big.json"
jig call write_file --args @"$tmp/big.json" --pin $d/large-file.json --step write --note "a 200 KB response" "${FSCWD[@]}" -- $FS
jig call read_file --args '{"path":"big.txt"}' --pin $d/large-file.json --append --step read
jig call read_file --args '{"path":"missing.txt"}' --pin $d/read-missing.json --note "a file that is not there" "${FSCWD[@]}" -- $FS || true
jig call read_file --args '{"path":"/etc/hostname"}' --pin $d/outside.json --note "outside the allowed directory: denied" "${FSCWD[@]}" -- $FS || true
jig call list_allowed_directories --pin $d/allowed.json "${FSCWD[@]}" -- $FS

# mcp-go's examples/everything v0.43.0 (Go module proxy), stdio.
MG="$P/bin/mcpgo-everything-v0.43.0"
d=$out/mcpgo; rm -rf "$d"; mkdir -p "$d"
jig call add --args '{"a":1.5,"b":2}' --pin $d/add.json -- $MG
jig call echo --args '{"message":"hello corpus"}' --pin $d/echo.json -- $MG
jig call getTinyImage --pin $d/tiny-image.json -- $MG
jig call get_resource_link --args '{"resource_type":"text"}' --pin $d/resource-link.json -- $MG
jig call add --args '{"a":"x"}' --pin $d/add-missing.json --note "a required argument missing" -- $MG || true
sed -i "s|\"$(pwd)/.peers/|\".peers/|g" $out/*/*.json
echo "pinned the corpus into $out"
