"""Where every dataset comes from: the public GitHub repository, the pinned commit, the original
files (path in the repository -> path under <name>/original/, with a sha256 prefix of the file as
the repository serves it), the license line, the citation and the converter that turns the
originals into votes.csv / annotations.csv / items.jsonl.

The commits, paths, hashes, titles, license lines and citations are those of the shared datasets'
SOURCE.md files, so a download reproduces ../shared/data (scripts/download/test_converters.py).
"""
from collections import namedtuple

# path: file in the repository; local: where it goes under <name>/original/; sha: first 16 hex
# digits of its sha256 (of the file itself, also where `local` stores it gzipped); member: the file
# to take out of the archive at `path` (matched by its base name), for archives.
Original = namedtuple("Original", "path local sha member", defaults=(None,))
Dataset = namedtuple("Dataset", "name title repo commit originals license citation convert notes")

CHAOS = ("jsbaan/calibration-on-disagreement-data", "990e81cacadac5d0268160d1c02bad19d4ddb9a3")
CIFAR = ("jcpeterson/cifar-10h", "48da312b193b82e6939ec20f23d1f09cbdd849c8")
POPQ = ("Jiaxin-Pei/Potato-Prolific-Dataset", "dbb118c29b3d9bcce5aa172d8249ded9ece4df84")
LEWIDI = ("Le-Wi-Di/le-wi-di.github.io", "45d7b06e4c36b59472d6bdf9281f7f1e395eb0e0")
SNOW = ("edwinrobots/bayesian_combination_tutorial2", "f98448e2e9a941463aa92f418eefd1f43bd5a637")
CTI = ("zhydhkcws/crowd_truth_infer", "8d216471071f09b9e474ee19f8d692447f982f88")
GAL = ("ipeirotis/Get-Another-Label", "9fe6c56a7a157dba1a12018f696bad56806125b7")
ORCHID = ("orchidproject/active-crowd-toolkit", "2c0c194e85ca126545bd830d811ec39151bdd448")
PAVLICK = ("epavlick/NLI-variation-data", "0fce1bab0ee3b68d12f9600aaabec8e1b554c835")
RELEX = ("CrowdTruth/Medical-Relation-Extraction", "585c158864f91d7e7666f70d3b705294186e1378")
KONIQ = ("subpic/koniq", "1c271570ac83aeb6aa8e7ff25449f3299b0d2e53")

CHAOS_LICENSE = (
    '"ChaosNLI is licensed under Creative Commons-Non Commercial 4.0" (data README.txt, kept in '
    "original/). The easonnie/ChaosNLI code repository itself is MIT. The underlying "
    "premise/hypothesis texts come from SNLI / MultiNLI / alphaNLI dev sets, which carry their own "
    "licenses.")
CHAOS_CITE = ("Yixin Nie, Xiang Zhou, Mohit Bansal. 2020. What Can We Learn from Collective Human "
              "Opinions on Natural Language Inference Data? EMNLP 2020.")
CHAOS_README = Original("data/chaosNLI_v1.0/README.txt", "README.txt", "b02af8460b221a1a")
LEWIDI23_LICENSE = ("No license file or statement in the LeWiDi repository. Original datasets: see the "
                    "cited papers. Treat as research-only.")
LEWIDI23_CITE = ("Elisa Leonardelli, Alexandra Uma, Gavin Abercrombie, Dina Almanea, Valerio Basile, "
                 "Tommaso Fornaciari, Barbara Plank, Verena Rieser, Massimo Poesio. 2023. SemEval-2023 "
                 "Task 11: Learning with Disagreements (LeWiDi). SemEval-2023.")
LEWIDI23_README = Original("LeWiDi_2-2023/readme.md", "LeWiDi_2-2023_readme.md", "7e405001c65461a9")
SNOW_DIR = "snow2008_mturk_data_with_orig_files_assembled_201904"
SNOW_TGZ = SNOW_DIR + "/all_collected_data.tgz"
SNOW_README = Original(SNOW_DIR + "/README.txt", "README_oconnor_2019.txt", "f39cd176231ba0c0")
SNOW_LICENSE = "No license stated for the 2008 data release; hosting repository MIT."
SNOW_CITE = "Snow, O'Connor, Jurafsky, Ng. 2008. Cheap and Fast - But is it Good? EMNLP 2008."
DOGS = "datasets/s4_Dog data/"
FACES = "datasets/s4_Face Sentiment Identification/"


def _d(name, title, src, originals, license, citation, convert, notes):
    return Dataset(name, title, src[0], src[1], originals, license, citation, convert, notes)


DATASETS = [
    _d("chaosnli_snli", "ChaosNLI - SNLI subset (100 annotations per item)", CHAOS,
       [Original("data/chaosNLI_v1.0/chaosNLI_snli.jsonl", "chaosNLI_snli.jsonl", "99f9015ddda7d85f"),
        CHAOS_README],
       CHAOS_LICENSE, CHAOS_CITE, "chaosnli",
       "votes.csv (100 votes per item), votes_old5.csv (the original 5 SNLI labels), items.jsonl."),
    _d("chaosnli_mnli", "ChaosNLI - MNLI-matched subset (100 annotations per item)", CHAOS,
       [Original("data/chaosNLI_v1.0/chaosNLI_mnli_m.jsonl", "chaosNLI_mnli_m.jsonl", "8eb49b589488e7b1"),
        CHAOS_README],
       CHAOS_LICENSE, CHAOS_CITE, "chaosnli",
       "votes.csv (100 votes per item), votes_old5.csv (the original 5 MNLI labels), items.jsonl."),
    _d("chaosnli_alphanli", "ChaosNLI - alphaNLI (abductive NLI) subset (100 annotations per item)", CHAOS,
       [Original("data/chaosNLI_v1.0/chaosNLI_alphanli.jsonl", "chaosNLI_alphanli.jsonl", "f55817ecc11a02ba"),
        CHAOS_README],
       CHAOS_LICENSE, CHAOS_CITE, "chaosnli",
       "votes.csv (hyp1/hyp2: which hypothesis is more plausible), items.jsonl."),
    _d("cifar10h", "CIFAR-10H (human labels for the CIFAR-10 test set)", CIFAR,
       [Original("data/cifar10h-counts.npy", "cifar10h-counts.npy", "9b36b4550349af56"),
        Original("data/cifar10h-probs.npy", "cifar10h-probs.npy", "436ae98620e00073"),
        Original("LICENSE.txt", "LICENSE.txt", "45844a64b9743132"),
        Original("README.md", "README.md", "3800c69405b9c824")],
       "CC BY-NC-SA 4.0 (LICENSE.txt, kept in original/).",
       "Joshua C. Peterson, Ruairidh M. Battleday, Thomas L. Griffiths, Olga Russakovsky. 2019. "
       "Human uncertainty makes classification more robust. ICCV 2019.",
       "cifar10h", "votes.csv (item_id = index in the CIFAR-10 test set). No per-annotator file."),
    _d("pavlick2019_nli",
       "Pavlick & Kwiatkowski 2019 - inherent disagreement in NLI (~40-50 graded judgments per pair)",
       PAVLICK,
       [Original("sentence-pair-analysis/preprocessed-data.jsonl", "preprocessed-data.jsonl", "ce1724dc0139e26d"),
        Original("sentence-pair-analysis/raw/batch1.csv", "raw/batch1.csv.gz", "7c5f3d1ffb3bfc8f"),
        Original("sentence-pair-analysis/raw/batch2.csv", "raw/batch2.csv.gz", "8408a18d6d6c1c43"),
        Original("sentence-pair-analysis/raw/batch3.csv", "raw/batch3.csv.gz", "e95c78a45862d62b"),
        Original("README.md", "README.md", "4ebddc2ead25400a")],
       "No license file in the repository. Treat as research-only; cite the paper.",
       "Ellie Pavlick, Tom Kwiatkowski. 2019. Inherent Disagreements in Human Textual Inferences. TACL 7.",
       "pavlick",
       "votes.csv is DERIVED: each slider score in [-50, 50] is binned into thirds (> 50/3 entailment, "
       "< -50/3 contradiction, else neutral). items.jsonl has the pairs."),
    _d("sentiment_popularity_amt",
       "Sentiment Popularity - AMT (Venanzi et al. 2015): 500 movie-review sentences x 20 annotators, binary",
       ORCHID, [Original("Data/SP_amt.csv", "SP_amt.csv", "fec6f3027202d330")],
       "Hosting repository is Apache-2.0 (toolkit code); original release: University of Southampton "
       "ePrints, doi:10.5258/SOTON/376544.",
       "Matteo Venanzi, W. T. Luke Teacy, Alexander Rogers, Nicholas R. Jennings. 2015. Sentiment "
       "Popularity - Amazon Mechanical Turk dataset. University of Southampton. doi:10.5258/SOTON/376544.",
       "orchid", "votes.csv (negative/positive), annotations.csv."),
    _d("snow2008_rte", "Snow et al. 2008 - RTE (PASCAL RTE-1 test pairs), 10 AMT annotators each", SNOW,
       [Original(SNOW_TGZ, "rte.standardized.tsv", "3187c5de59b9b9c5", "rte.standardized.tsv"),
        Original(SNOW_DIR + "/rte/rte1.tsv", "rte1.tsv", "f59dfe1ceac428c6"),
        SNOW_README],
       "No license stated for the 2008 data release; the hosting repository is MIT-licensed "
       "(Copyright (c) 2023 Edwin Simpson). RTE-1 texts are from the PASCAL RTE challenge.",
       "Rion Snow, Brendan O'Connor, Daniel Jurafsky, Andrew Y. Ng. 2008. Cheap and Fast - But is it "
       "Good? Evaluating Non-Expert Annotations for Natural Language Tasks. EMNLP 2008.",
       "snow", "votes.csv (not_entailed / entailed), annotations.csv, items.jsonl (HTML entities unescaped)."),
    _d("snow2008_temp", "Snow et al. 2008 - temporal ordering (TempEval), 10 AMT annotators each", SNOW,
       [Original(SNOW_TGZ, "temp.standardized.tsv", "7f74de9f36a0d3df", "temp.standardized.tsv"),
        SNOW_README],
       SNOW_LICENSE, SNOW_CITE, "snow", "votes.csv (classes 1, 2 as coded in the release), annotations.csv."),
    _d("snow2008_wsd", "Snow et al. 2008 - word sense disambiguation of 'president', 10 AMT annotators each",
       SNOW,
       [Original(SNOW_TGZ, "wsd.standardized.tsv", "77b77c0f63803bcb", "wsd.standardized.tsv"),
        SNOW_README],
       SNOW_LICENSE, SNOW_CITE, "snow", "votes.csv (sense1..sense3), annotations.csv."),
    _d("crowdti_dogs", "Dogs (Zhou et al. 2012): ImageNet dog-breed images, 10 annotators each, 4 classes",
       CTI,
       [Original(DOGS + "answer.csv", "answer.csv", "db11159198f59fa2"),
        Original(DOGS + "truth.csv", "truth.csv", "2a641fa31e805261"),
        Original(DOGS + "Readme.txt", "Readme.txt", "576de1be92d0c37c")],
       "No license stated.",
       "Dengyong Zhou, John C. Platt, Sumit Basu, Yi Mao. 2012. Learning from the Wisdom of Crowds by "
       "Minimax Entropy. NIPS 2012. Collected in Zheng et al. 2017 (PVLDB).",
       "crowdti", "votes.csv (classes 0..3, four dog breeds), annotations.csv."),
    _d("crowdti_faces", "Face sentiment (Mozafari et al. 2014): 584 faces, ~9 annotators each, 4 classes",
       CTI,
       [Original(FACES + "answer.csv", "answer.csv", "9e98c7c56ea1967c"),
        Original(FACES + "truth.csv", "truth.csv", "c324c79fd7196d16"),
        Original(FACES + "face4.desc", "face4.desc", "5c486947878d8f65")],
       "No license stated.",
       "Barzan Mozafari, Purna Sarkar, Michael Franklin, Michael Jordan, Samuel Madden. 2014. Scaling "
       "Up Crowd-Sourcing to Very Large Datasets: A Case for Active Learning. PVLDB 8(2). Collected in "
       "Zheng et al. 2017.",
       "crowdti", "votes.csv (classes 0..3; face4.desc lists neutral, happy, sad, angry), annotations.csv."),
    _d("popquorn_offensiveness", "POPQUORN - offensiveness ratings (1-5) with annotator demographics", POPQ,
       [Original("dataset/offensiveness/raw_data.csv", "offensiveness_raw_data.csv", "fb0589093d45da76"),
        Original("README.md", "README.md", "3fcfcc6350fe21cc")],
       "No license file or license statement in the repository. Treat as research-only; cite the paper.",
       "Jiaxin Pei, David Jurgens. 2023. When Do Annotator Demographics Matter? Measuring the Influence "
       "of Annotator Demographics with the POPQUORN Dataset. LAW-XVII @ ACL 2023.",
       "popquorn", "votes.csv (Likert 1..5 as 5 ordered classes), annotations.csv, items.jsonl."),
    _d("gal_adultcontent2",
       "AdultContent2 (Get-Another-Label): ~11k web sites, ~8 AMT labels each, 4 categories", GAL,
       [Original("data/AdultContent2/labels.txt", "labels.txt", "9584f9d0eda4ede1"),
        Original("data/AdultContent2/gold.txt", "gold.txt", "7b2417f4f8568426"),
        Original("data/AdultContent2/categories.txt", "categories.txt", "1f675434aad38a99"),
        Original("data/AdultContent2/README.txt", "README.txt", "00cfff8f85088356"),
        Original("data/README.txt", "data_README.txt", "665ee7934d67852e")],
       "Repository is Apache-2.0; no separate data license stated.",
       "Ipeirotis, Provost, Wang. 2010. Quality Management on Amazon Mechanical Turk. HCOMP 2010 "
       "(Get-Another-Label project data).",
       "gal",
       "votes.csv and annotations.csv keep the first label of each (worker, site); "
       "votes_all_labels.csv counts every row."),
    _d("lewidi2023_hsbrexit", "HS-Brexit (LeWiDi 2023): hate speech in Brexit tweets, 6 fixed annotators",
       LEWIDI,
       [Original(f"LeWiDi_2-2023/HS-Brexit_dataset/HS-Brexit_{s}.json", f"HS-Brexit_{s}.json", h)
        for s, h in [("train", "d204d83c7b1a73f0"), ("dev", "77c17f95985cbb6d"), ("test", "24e5e1615818ff6e")]]
       + [LEWIDI23_README],
       LEWIDI23_LICENSE,
       LEWIDI23_CITE + " Dataset: Sohail Akhtar, Valerio Basile, Viviana Patti. 2021. Whose Opinions "
       "Matter? Perspective-aware Models to Identify Opinions of Hate Speech Victims in Abusive "
       "Language Detection. arXiv:2106.15896.",
       "lewidi2023",
       "votes.csv (hate speech 0/1), votes_aggressive.csv, votes_offensive.csv, annotations.csv, "
       "items.jsonl; item_id = <split>_<key>."),
    _d("lewidi2023_mdagreement",
       "MD-Agreement (LeWiDi 2023): offensiveness of tweets, 5 AMT annotators per item", LEWIDI,
       [Original(f"LeWiDi_2-2023/MD-Agreement_dataset/MD-Agreement_{s}.json", f"MD-Agreement_{s}.json", h)
        for s, h in [("train", "0b100595f7d10fd9"), ("dev", "b42b6b5401558950"), ("test", "a30f185ece8bc99a")]]
       + [LEWIDI23_README],
       LEWIDI23_LICENSE,
       LEWIDI23_CITE + " Dataset: Elisa Leonardelli, Stefano Menini, Alessio Palmero Aprosio, Marco "
       "Guerini, Sara Tonelli. 2021. Agreeing to Disagree: Annotating Offensive Language Datasets with "
       "Annotators' Disagreement. EMNLP 2021.",
       "lewidi2023", "votes.csv (0/1 offensive), annotations.csv, items.jsonl; item_id = <split>_<key>."),
    _d("lewidi2025_multipico", "MultiPICo (LeWiDi 2025): multilingual irony detection in post-reply pairs",
       LEWIDI,
       [Original("LeWiDi_3-2025/MP/MP_dev.json", "MP_dev.json", "284bd1d9119b4687"),
        Original("LeWiDi_3-2025/MP/MP_test.json", "MP_test.json", "da313236d8b6b1cb"),
        Original("LeWiDi_3-2025/MP/MP_annotators_meta.json", "MP_annotators_meta.json", "8b0e310e21246884"),
        Original("LeWiDi_3-2025/readme.md", "LeWiDi_3-2025_readme.md", "ab7ef85d2f56a920")],
       "No license file or statement in the LeWiDi repository. Treat as research-only.",
       "Silvia Casola, Simona Frenda, Soda Marem Lo, Erhan Sezerer, Antonio Uva, Valerio Basile, "
       "Cristina Bosco, Alessandro Pedrani, Chiara Rubagotti, Viviana Patti, Davide Bernardi. 2024. "
       "MultiPICo: Multilingual Perspectivist Irony Corpus. ACL 2024. Shared task: LeWiDi 2025 (third "
       "edition), NLPerspectives @ EMNLP 2025.",
       "multipico", "votes.csv (0/1 ironic), annotations.csv, items.jsonl; dev and test splits only."),
    _d("rodrigues_sentiment_polarity",
       "Sentiment polarity (Rodrigues et al. 2013): ~5k movie-review sentences, ~5.5 AMT labels each",
       ORCHID, [Original("Data/SP.csv", "SP.csv", "a83cf48092dc61bb")],
       "Hosting repository is Apache-2.0 (toolkit code); no data license stated.",
       "Filipe Rodrigues, Francisco Pereira, Bernardete Ribeiro. 2013. Learning from multiple "
       "annotators: distinguishing good from random labelers. Pattern Recognition Letters 34(12). "
       "Sentences from Pang & Lee (2005).",
       "orchid", "votes.csv (negative/positive), annotations.csv."),
    _d("crowdtruth_medrelex",
       "CrowdTruth medical relation extraction (RelEx), multilabel, 15 workers per item",
       RELEX,
       [
        Original("raw/RelEx/RelEx_batch_01.csv", "RelEx_batch_01.csv.gz", "0b09a50a80727759"),
        Original("raw/RelEx/RelEx_batch_02.csv", "RelEx_batch_02.csv.gz", "73efad23343606bc"),
        Original("raw/RelEx/RelEx_batch_03.csv", "RelEx_batch_03.csv.gz", "96e42238b64eede7"),
        Original("raw/RelEx/RelEx_batch_04.csv", "RelEx_batch_04.csv.gz", "566677e1349aa1d2"),
        Original("raw/RelEx/RelEx_batch_05.csv", "RelEx_batch_05.csv.gz", "acfdf510de1b8276"),
        Original("raw/RelEx/RelEx_batch_06.csv", "RelEx_batch_06.csv.gz", "032435959aa94fd9"),
        Original("raw/RelEx/RelEx_batch_07.csv", "RelEx_batch_07.csv.gz", "2654cce31eac4fbf"),
        Original("raw/RelEx/RelEx_batch_08.csv", "RelEx_batch_08.csv.gz", "5bbdd19500886df4"),
        Original("raw/RelEx/RelEx_batch_09.csv", "RelEx_batch_09.csv.gz", "c923d06106871b41"),
        Original("raw/RelEx/RelEx_batch_10.csv", "RelEx_batch_10.csv.gz", "4d4d847f8031eaba"),
        Original("raw/RelEx/RelEx_batch_11.csv", "RelEx_batch_11.csv.gz", "f84744897e5c63b9"),
        Original("raw/RelEx/RelEx_batch_12.csv", "RelEx_batch_12.csv.gz", "0e16c7e792796747"),
        Original("raw/RelEx/RelEx_batch_13.csv", "RelEx_batch_13.csv.gz", "63c3affdd4e56b56"),
        Original("raw/RelEx/RelEx_batch_14.csv", "RelEx_batch_14.csv.gz", "ca0c8eb6b3f74c8f"),
        Original("raw/RelEx/RelEx_batch_15.csv", "RelEx_batch_15.csv.gz", "0c7c5354733e3426"),
        Original("raw/RelEx/RelEx_batch_16.csv", "RelEx_batch_16.csv.gz", "befa1bb1053bf080"),
        Original("raw/RelEx/RelEx_batch_17.csv", "RelEx_batch_17.csv.gz", "33d3604e4de3dad0"),
        Original("raw/RelEx/RelEx_batch_18.csv", "RelEx_batch_18.csv.gz", "40804906b9afd6f8"),
        Original("raw/RelEx/RelEx_batch_19.csv", "RelEx_batch_19.csv.gz", "f333cd017aac0300"),
        Original("raw/RelEx/RelEx_batch_20.csv", "RelEx_batch_20.csv.gz", "e3bf7b50d584cfe7"),
        Original("raw/RelEx/RelEx_batch_21.csv", "RelEx_batch_21.csv.gz", "bd3856dddeaf87e5"),
        Original("raw/RelEx/RelEx_batch_22.csv", "RelEx_batch_22.csv.gz", "f931926142c2c46d"),
        Original("raw/RelEx/RelEx_batch_23.csv", "RelEx_batch_23.csv.gz", "3ef367a6ca09bc5b"),
        Original("raw/RelEx/RelEx_batch_24.csv", "RelEx_batch_24.csv.gz", "0fff99368821efbc"),
        Original("raw/RelEx/RelEx_batch_25.csv", "RelEx_batch_25.csv.gz", "68775da42255160b"),
        Original("raw/RelEx/RelEx_batch_26.csv", "RelEx_batch_26.csv.gz", "00b021088acadb1f"),
        Original("raw/RelEx/RelEx_batch_27.csv", "RelEx_batch_27.csv.gz", "ca344547a92f99d7"),
        Original("raw/RelEx/RelEx_batch_28.csv", "RelEx_batch_28.csv.gz", "000c76762fb754b3"),
        Original("raw/RelEx/RelEx_batch_29.csv", "RelEx_batch_29.csv.gz", "e7706b157e97ef76"),
        Original("raw/RelEx/RelEx_batch_30.csv", "RelEx_batch_30.csv.gz", "04c571d602dd25d3"),
        Original("raw/RelEx/RelEx_batch_31.csv", "RelEx_batch_31.csv.gz", "ff779ddcd65ef8b8"),
        Original("raw/RelEx/RelEx_batch_32.csv", "RelEx_batch_32.csv.gz", "1cbf80d49d0c060d"),
        Original("raw/RelEx/RelEx_batch_33.csv", "RelEx_batch_33.csv.gz", "c34181af0e524f3c"),
        Original("raw/RelEx/RelEx_batch_34.csv", "RelEx_batch_34.csv.gz", "0883642320edf05a"),
        Original("raw/RelEx/RelEx_batch_35.csv", "RelEx_batch_35.csv.gz", "f986b5d513bd8657"),
        Original("raw/RelEx/RelEx_batch_36.csv", "RelEx_batch_36.csv.gz", "131ebe208e778dc9"),
        Original("raw/RelEx/RelEx_batch_37.csv", "RelEx_batch_37.csv.gz", "be32cee0822afdcb"),
        Original("raw/RelEx/RelEx_batch_38.csv", "RelEx_batch_38.csv.gz", "0741f2ce5a2d3a70"),
        Original("raw/RelEx/RelEx_batch_39.csv", "RelEx_batch_39.csv.gz", "7ea1edf0ecd472cc"),
        Original("raw/RelEx/RelEx_batch_40.csv", "RelEx_batch_40.csv.gz", "9d7a7e1bc5a7eb85"),
        Original("raw/RelEx/RelEx_batch_41.csv", "RelEx_batch_41.csv.gz", "6bf01a52a4769363"),
        Original("raw/RelEx/RelEx_batch_42.csv", "RelEx_batch_42.csv.gz", "f98bb4ed00b3dc49"),
        Original("raw/RelEx/RelEx_batch_43.csv", "RelEx_batch_43.csv.gz", "acaff32eed8c50a8"),
        Original("raw/RelEx/RelEx_batch_44.csv", "RelEx_batch_44.csv.gz", "cd8b049e35b72230"),
        Original("raw/RelEx/RelEx_batch_45.csv", "RelEx_batch_45.csv.gz", "fc2370d6b37315ec"),
        Original("raw/RelEx/RelEx_batch_46.csv", "RelEx_batch_46.csv.gz", "1c0b9e0f9aea6f3b"),
       ],
       "None stated. The repository has no LICENSE file, and neither the README nor "
       "`ground_truth.csv-metadata.json` names a licence.",
       "Anca Dumitrache, Lora Aroyo, Chris Welty. CrowdTruth Measures for Language Ambiguity: The Case "
       "of Medical Relation Extraction. LD4IE workshop at ISWC 2015. Anca Dumitrache, Lora Aroyo, "
       "Chris Welty. Achieving Expert-Level Annotation Quality with CrowdTruth: The Case of Medical "
       "Relation Extraction. BDM2I workshop at ISWC 2015.",
       "medrelex",
       "MULTILABEL: each worker could tick any number of 14 relation checkboxes per item, so there is "
       "no votes.csv. ratings_multilabel.csv (item_id,annotator_id and one 0/1 column per label, in the "
       "task template's order), labels_long.csv (item_id,annotator_id,label, one row per ticked label; "
       "`none` is the task's own checkbox), items.jsonl (the sentence as text, its two terms and "
       "offsets, the source batch and unit-level source fields). Worker IPs and locations in the "
       "originals are not copied into these files."),
    _d("koniq10k", "KonIQ-10k - image quality ratings (1-5), about 106 per image", KONIQ,
       [Original("metadata/koniq10k_distributions_sets.csv", "koniq10k_distributions_sets.csv",
                 "d0bd1ad54a60bc36")],
       "MIT (the repository's LICENSE, Copyright (c) 2019 Vlad Hosu); the images are not included.",
       "Vlad Hosu, Hanhe Lin, Tamas Sziranyi, Dietmar Saupe. 2020. KonIQ-10k: An ecologically valid "
       "database for deep learning of blind image quality assessment. IEEE Transactions on Image "
       "Processing 29.",
       "koniq",
       "votes.csv (a 5-point absolute category rating scale, 1 = bad .. 5 = excellent, as 5 ordered "
       "classes; counts = round(share x c_total)). No per-rater ids."),
]

BY_NAME = {d.name: d for d in DATASETS}
DEFAULT = "chaosnli_snli"


def raw_url(ds, path):
    """The pinned-commit raw.githubusercontent.com address of one file of the dataset's repository.
    $ANNOSAT_FETCH_BASE replaces the host (the tests point it at a file:// copy laid out the same way)."""
    import os
    from urllib.parse import quote
    base = os.environ.get("ANNOSAT_FETCH_BASE", "https://raw.githubusercontent.com").rstrip("/")
    return f"{base}/{ds.repo}/{ds.commit}/{quote(path)}"
