#include "command_line_sink.h"

#include <cstdlib>
#include <cstring>

namespace feed {

void CommandLineSink::Write(std::string_view b) {
  if (target_) return target_->Write(b);
  head_.append(b);
  const size_t end = head_.find("\r\n\r\n");
  if (end == std::string::npos) return;
  status_ = std::atoi(head_.c_str() + std::strlen("Status: "));
  target_ = status_ == 200 ? &out_ : &err_;
  const std::string rest = head_.substr(end + 4);
  head_.clear();
  target_->Write(rest);
}

void CommandLineSink::Flush() {
  if (target_) target_->Flush();
}

}  // namespace feed
