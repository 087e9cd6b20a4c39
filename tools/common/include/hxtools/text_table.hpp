// Columns padded to their widest cell, so that a terminal shows a table without a library.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace hxtools {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers);

  // Empty cells print as "-" so that every column stays visible.
  void add_row(std::vector<std::string> cells);
  // A line printed under the last row added, not aligned: long texts (skip reasons) would
  // otherwise widen the whole table.
  void add_note(std::string note);

  void print(std::ostream& out, const std::string& indent) const;

 private:
  struct Row {
    std::vector<std::string> cells;
    std::vector<std::string> notes;
  };
  void print_cells(std::ostream& out, const std::string& indent,
                   const std::vector<std::string>& cells,
                   const std::vector<size_t>& widths) const;

  std::vector<std::string> headers_;
  std::vector<Row> rows_;
};

}  // namespace hxtools
